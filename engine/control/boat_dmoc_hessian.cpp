// engine/control/boat_dmoc_hessian.cpp — the Hessian of the boat DMOC Lagrangian (boat_dmoc.h) segment by segment:
// the LGVI blocks of lgvi_hessian.h (the eq. (9) pose rows, the momentum C(h w)^T J w, m v and the next left momentum
// mu^-(xi_{k-1})), the effort, and the exact second derivatives of the momentum rows' wrench terms (boat_dmoc_hull_jet.h:
// the hull wrench h Tr f^+ with its exposures frozen at node k, the immersion-faded thrust), in still water and waves.
#include <vector>

#include "engine/control/block_banded_hessian.h"
#include "engine/control/boat_dmoc.h"
#include "engine/control/boat_dmoc_hull_jet.h"

namespace varsim {

// l^T d2(eq. (10) rows)/dz2, rows r = C(h w)^T J w, m v - mu^- - h F diag(iota(g_k)) u - h Tr f^+ (the wrench terms on
// jets of the boat's own routines, boat_dmoc_hull_jet.h; exact in still water and under waves).
void BoatDmoc::momentumHessian(const Eigen::VectorXd& x, int k, const Vector6d& l, Eigen::MatrixXd& Dk) const {
  const BoatDmocSpec& s = spec_;
  const int ck = kBlock * k;
  const double h = s.h;
  Dk.block<6, 6>(6, 6) += lgviMomentumHessian(inertia_, s.lgvi, h, twist(x, k), l);
  const BoatHullJets j = boatHullJets(boat_, water_, s.lgvi, h, k * h, Rbar_[size_t(k)], x.segment<3>(ck),
                                      x.segment<3>(ck + 3), twist(x, k));
  BoatSegmentJet lf(0.0);
  for (int i = 0; i < 6; ++i) lf += l[i] * j.endWrench[size_t(i)];
  Dk.topLeftCorner<12, 12>() -= h * lf.H();
  const Eigen::Matrix<double, 6, 2> F = boat_.controlMatrix();  // columns (right, left)
  const Eigen::Vector2d u = thrust(x, k);                        // (left, right)
  for (int t = 0; t < 2; ++t) {                                  // t = 0 right (variable 13), 1 left (variable 12)
    const double lF = l.dot(F.col(t)), uN = t == 0 ? u.y() : u.x();
    Dk.topLeftCorner<6, 6>() -= (h * uN * lF) * j.immersion[size_t(t)].H();
    const Vector6d cross = -h * s.boat.thrustMax * lF * j.immersion[size_t(t)].g;
    Dk.block<1, 6>(12 + (1 - t), 0) += cross.transpose();
    Dk.block<6, 1>(0, 12 + (1 - t)) += cross;
  }
}

void BoatDmoc::hessian(const Eigen::VectorXd& x, double objFactor, const Eigen::VectorXd& lambda,
                       std::vector<Eigen::Triplet<double>>& out) const {
  const BoatDmocSpec& s = spec_;
  const int N = s.N;
  const double h = s.h, m = s.boat.mass;
  BlockBandedHessian H(N, kBlock, {{0, kBlock}});
  for (int k = 0; k < N; ++k) {
    Eigen::MatrixXd& Dk = H.node(k);
    const int ck = kBlock * k;
    const Vector6d xi = twist(x, k), l10 = lambda.segment<6>(12 * k) / m, l9 = lambda.segment<6>(12 * k + 6);
    // eq. (10) rows / m in (theta_k, x_k, xi_k) and their cross terms with u_k (u enters linearly, through the
    // immersion-faded thrust: no u-u term).
    momentumHessian(x, k, l10, Dk);
    if (k > 0) H.node(k - 1).block<6, 6>(6, 6) -= lgviNextMomentumHessian(inertia_, s.lgvi, h, twist(x, k - 1), l10);
    Dk.block<2, 2>(12, 12).diagonal().array() += objFactor * 2.0 * s.weightThrust * h;  // effort h w sum |u|^2
    // eq. (9) rows.
    H.addPoseRows(k, lgviPoseRowsHessian(s.lgvi, h, Rbar_[size_t(k)], x.segment<3>(ck), xi, Rbar_[size_t(k + 1)],
                                         x.segment<3>(ck + kBlock), l9));
  }
  H.emit(out);
}

}  // namespace varsim
