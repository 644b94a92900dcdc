// engine/control/boat_dmoc_hessian.cpp — the Hessian of the boat DMOC Lagrangian (boat_dmoc.h) segment by segment:
// the LGVI blocks of lgvi_hessian.h (the eq. (9) pose rows, the momentum C(h w)^T J w, m v and the next left momentum
// mu^-(xi_{k-1})), the effort, and in still water the exact second derivatives of the momentum rows' wrench terms
// (boat_dmoc_hull_jet.h: the hull wrench h Tr f^+ with its exposures frozen at node k, the immersion-faded thrust).
// Under waves the Jacobian's node-data part is itself a difference, so the momentum rows' block is forward differences
// of their local gradient in the 12 pose and twist variables of the segment's own block (13 local Jacobians).
#include <vector>

#include "engine/control/block_banded_hessian.h"
#include "engine/control/boat_dmoc.h"
#include "engine/control/boat_dmoc_hull_jet.h"

namespace varsim {

// l^T d2(eq. (10) rows)/dz2 in still water, rows r = C(h w)^T J w, m v - mu^- - h F diag(iota(g_k)) u - h Tr f^+.
void BoatDmoc::momentumHessianStill(const Eigen::VectorXd& x, int k, const Vector6d& l, Eigen::MatrixXd& Dk) const {
  const BoatDmocSpec& s = spec_;
  const int ck = kBlock * k;
  const double h = s.h;
  Dk.block<6, 6>(6, 6) += lgviMomentumHessian(inertia_, s.lgvi, h, twist(x, k), l);
  const BoatHullJets j =
      boatHullJets(boat_, water_, s.lgvi, h, Rbar_[size_t(k)], x.segment<3>(ck), x[ck + 5], twist(x, k), l);
  Eigen::Matrix<double, 10, 10> Hz = -h * j.endWrench.H;
  const Eigen::Matrix<double, 6, 2> F = boat_.controlMatrix();  // columns (right, left)
  const Eigen::Vector2d u = thrust(x, k);                        // (left, right)
  for (int t = 0; t < 2; ++t) {                                  // t = 0 right (variable 13), 1 left (variable 12)
    const double lf = l.dot(F.col(t)), uN = t == 0 ? u.y() : u.x();
    Hz.topLeftCorner<4, 4>() -= (h * uN * lf) * j.immersion[size_t(t)].H;
    const Eigen::Vector4d cross = -h * s.boat.thrustMax * lf * j.immersion[size_t(t)].g;
    for (int a = 0; a < 4; ++a) {
      Dk(12 + (1 - t), kBoatHullJetOffsets[size_t(a)]) += cross[a];
      Dk(kBoatHullJetOffsets[size_t(a)], 12 + (1 - t)) += cross[a];
    }
  }
  for (int a = 0; a < 10; ++a)
    for (int b = 0; b < 10; ++b) Dk(kBoatHullJetOffsets[size_t(a)], kBoatHullJetOffsets[size_t(b)]) += Hz(a, b);
}

// The same block by forward differences of the exact local gradient (the rows' node-data partial under waves is a
// central difference; no second derivative of the clipping against the moving grid).
void BoatDmoc::momentumHessianDifferenced(const Eigen::VectorXd& x, int k, const Vector6d& l,
                                          Eigen::MatrixXd& Dk) const {
  const int ck = kBlock * k;
  Eigen::VectorXd xw = x;
  const Eigen::Matrix<double, 14, 1> g0 = momentumLocalJacobian(x, k, nullptr).transpose() * l;
  Eigen::Matrix<double, 14, 12> Hm;
  for (int j = 0; j < 12; ++j) {
    const double step = 1e-7 * std::max(1.0, std::abs(x[ck + j]));
    xw[ck + j] = x[ck + j] + step;
    Hm.col(j) = (momentumLocalJacobian(xw, k, nullptr).transpose() * l - g0) / step;
    xw[ck + j] = x[ck + j];
  }
  Dk.topLeftCorner<12, 12>() += 0.5 * (Hm.topRows<12>() + Hm.topRows<12>().transpose());
  Dk.bottomLeftCorner<2, 12>() += Hm.bottomRows<2>();
  Dk.topRightCorner<12, 2>() += Hm.bottomRows<2>().transpose();
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
    if (water_.still()) momentumHessianStill(x, k, l10, Dk);
    else momentumHessianDifferenced(x, k, l10, Dk);
    if (k > 0) H.node(k - 1).block<6, 6>(6, 6) -= lgviNextMomentumHessian(inertia_, s.lgvi, h, twist(x, k - 1), l10);
    Dk.block<2, 2>(12, 12).diagonal().array() += objFactor * 2.0 * s.weightThrust * h;  // effort h w sum |u|^2
    // eq. (9) rows.
    H.addPoseRows(k, lgviPoseRowsHessian(s.lgvi, h, Rbar_[size_t(k)], x.segment<3>(ck), xi, Rbar_[size_t(k + 1)],
                                         x.segment<3>(ck + kBlock), l9));
  }
  H.emit(out);
}

}  // namespace varsim
