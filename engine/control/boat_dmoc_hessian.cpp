// engine/control/boat_dmoc_hessian.cpp — the Hessian of the boat DMOC Lagrangian (boat_dmoc.h) segment by segment:
// the LGVI blocks of lgvi_hessian.h where they are exact (the eq. (9) pose rows, the next left momentum mu^-(xi_{k-1}),
// the effort), and for the eq. (10) momentum rows, whose hull wrench (clipped buoyancy, frozen exposures, immersion)
// has no second derivative in the engine, forward differences of their exact local gradient in the 12 pose and twist
// variables of the segment's own block: 13 local Jacobians per segment instead of 43 whole Jacobians (banded_hessian.h).
#include <vector>

#include "engine/control/block_banded_hessian.h"
#include "engine/control/boat_dmoc.h"

namespace varsim {

void BoatDmoc::hessian(const Eigen::VectorXd& x, double objFactor, const Eigen::VectorXd& lambda,
                       std::vector<Eigen::Triplet<double>>& out) const {
  const BoatDmocSpec& s = spec_;
  const int N = s.N;
  const double h = s.h, m = s.boat.mass;
  BlockBandedHessian H(N, kBlock, {{0, kBlock}});
  Eigen::VectorXd xw = x;
  for (int k = 0; k < N; ++k) {
    Eigen::MatrixXd& Dk = H.node(k);
    const int ck = kBlock * k;
    const Vector6d xi = twist(x, k), l10 = lambda.segment<6>(12 * k) / m, l9 = lambda.segment<6>(12 * k + 6);
    // eq. (10) rows / m in (theta_k, x_k, xi_k) and their cross terms with u_k (u enters linearly, through the
    // immersion-faded thrust: no u-u term).
    const Eigen::Matrix<double, 14, 1> g0 = momentumLocalJacobian(x, k, nullptr).transpose() * l10;
    Eigen::Matrix<double, 14, 12> Hm;
    for (int j = 0; j < 12; ++j) {
      const double step = 1e-7 * std::max(1.0, std::abs(x[ck + j]));
      xw[ck + j] = x[ck + j] + step;
      Hm.col(j) = (momentumLocalJacobian(xw, k, nullptr).transpose() * l10 - g0) / step;
      xw[ck + j] = x[ck + j];
    }
    Dk.topLeftCorner<12, 12>() += 0.5 * (Hm.topRows<12>() + Hm.topRows<12>().transpose());
    Dk.bottomLeftCorner<2, 12>() += Hm.bottomRows<2>();
    Dk.topRightCorner<12, 2>() += Hm.bottomRows<2>().transpose();
    if (k > 0) H.node(k - 1).block<6, 6>(6, 6) -= lgviNextMomentumHessian(inertia_, s.lgvi, h, twist(x, k - 1), l10);
    Dk.block<2, 2>(12, 12).diagonal().array() += objFactor * 2.0 * s.weightThrust * h;  // effort h w sum |u|^2
    // eq. (9) rows.
    H.addPoseRows(k, lgviPoseRowsHessian(s.lgvi, h, Rbar_[size_t(k)], x.segment<3>(ck), xi, Rbar_[size_t(k + 1)],
                                         x.segment<3>(ck + kBlock), l9));
  }
  H.emit(out);
}

}  // namespace varsim
