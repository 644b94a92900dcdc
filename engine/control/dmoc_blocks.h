// engine/control/dmoc_blocks.h — small pieces shared by the SO(3)xR^3 DMOC transcriptions (heli_dmoc, boat_dmoc): the
// level yaw chart centre, the partials of the eq. (9) rotation row vee(E - E^T)/2, the eq. (9)
// rows with their Jacobian, and dense blocks into sparse triplets.
#pragma once

#include <cmath>
#include <vector>

#include <Eigen/SparseCore>

#include "engine/integrators/lgvi_se3.h"
#include "engine/lie/so3.h"

namespace varsim::dmoc {

using Triplets = std::vector<Eigen::Triplet<double>>;

inline Matrix3d yawMatrix(double psi) {  // exact third row (0, 0, 1): a level pose keeps its skids/keel level exactly
  const double c = std::cos(psi), s = std::sin(psi);
  Matrix3d R;
  R << c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0;
  return R;
}

// d/dp of (a^T E) etc. for the eq. (9) rotation row vee(E - E^T)/2: right-perturbing E by eps gives (tr(E) I - E^T) eps
// / 2; left-perturbing (E -> (I - s^) E) gives -(tr(E) I - E) s / 2.
inline Matrix3d skewRowRight(const Matrix3d& E) { return 0.5 * (E.trace() * Matrix3d::Identity() - E.transpose()); }
inline Matrix3d skewRowLeft(const Matrix3d& E) { return -0.5 * (E.trace() * Matrix3d::Identity() - E); }

template <class M>
void addBlock(Triplets& out, int row, int col, const M& block) {
  for (int j = 0; j < block.cols(); ++j)
    for (int i = 0; i < block.rows(); ++i) out.emplace_back(row + i, col + j, block(i, j));
}

// The 6 eq. (9) rows of a segment on SO(3)xR^3 (rotation vee(E - E^T)/2, E = (R_k tau(h w))^T R_{k+1}, rad; translation
// x_{k+1} - (x_k + h R_k v), m) through the stepper's lgviNextPose.
inline Vector6d poseRows(const LgviOptions& o, double h, const se3::Pose& gk, const Vector6d& xi, const se3::Pose& gk1) {
  const se3::Pose next = lgviNextPose(o, gk, h, xi);
  const Matrix3d E = next.R.transpose() * gk1.R;
  Vector6d r;
  r << 0.5 * (E(2, 1) - E(1, 2)), 0.5 * (E(0, 2) - E(2, 0)), 0.5 * (E(1, 0) - E(0, 1)), gk1.x - next.x;
  return r;
}

// Their Jacobian at rows row..row+5: block k's chart theta at column ck (R_k = Rbar exp(theta^), body perturbation
// Jr dtheta), x_k at ck + 3, xi_k at ck + 6; node k+1's theta at ck1 and x at ck1 + 3.
inline void addPoseRowsJacobian(Triplets& out, int row, int ck, int ck1, const LgviOptions& o, double h,
                                const se3::Pose& gk, const Vector6d& xi, const se3::Pose& gk1, const Matrix3d& Jr,
                                const Matrix3d& Jr1) {
  se3::Pose T;
  const se3::Pose next = lgviNextPose(o, gk, h, xi, &T);
  const Matrix3d E = next.R.transpose() * gk1.R;
  const Vector3d w = xi.head<3>(), v = xi.tail<3>();
  const Matrix3d etaPerW = h * (o.retraction == Retraction::Cay ? so3::dcay(-h * w) : so3::dexp(-h * w));
  addBlock(out, row, ck, Matrix3d(skewRowLeft(E) * T.R.transpose() * Jr));
  addBlock(out, row, ck + 6, Matrix3d(skewRowLeft(E) * etaPerW));
  addBlock(out, row, ck1, Matrix3d(skewRowRight(E) * Jr1));
  addBlock(out, row + 3, ck, Matrix3d(h * gk.R * so3::hat(v) * Jr));
  addBlock(out, row + 3, ck + 3, Matrix3d(-Matrix3d::Identity()));
  addBlock(out, row + 3, ck + 9, Matrix3d(-h * gk.R));
  addBlock(out, row + 3, ck1 + 3, Matrix3d::Identity());
}

}  // namespace varsim::dmoc
