// engine/control/lgvi_hessian.h — exact second derivatives of the LGVI step rows of seed 000 eqs. (9)-(10) on
// SO(3)xR^3 (lgvi_se3.h: lgviResidual's momentum part, lgviNextMomentum, the eq. (9) pose rows of dmoc_blocks.h) for
// the Hessian of a DMOC Lagrangian. Vehicle-neutral: a transcription adds its own wrench terms (gravity, controls, f^+)
// and places these blocks at its variables. Attitudes are charts R = Rbar exp(theta^) and differentiated in theta.
#pragma once

#include <array>

#include "engine/integrators/lgvi_se3.h"

namespace varsim {

using Matrix12d = Eigen::Matrix<double, 12, 12>;

// tau(w) = I + alpha(s) w^ + beta(s) w^2 (s = |w|^2; cay: alpha = 4/(4+s), beta = 2/(4+s); exp: alpha = sin t/t,
// beta = (1 - cos t)/t^2) with its partial derivatives in the components of w.
struct RotationJet {
  Matrix3d R;
  std::array<Matrix3d, 3> d;   // dR/dw_i
  std::array<Matrix3d, 9> dd;  // d2R/dw_i dw_j at 3 i + j (symmetric)
  const Matrix3d& second(int i, int j) const { return dd[size_t(3 * i + j)]; }
};
RotationJet rotationJet(Retraction tau, const Vector3d& w);

// d2/dw2 of lam^T C(a w)^T J w (so3CTmu(c, a w, J w): a = h in eq. (10), a = -h in the next left momentum).
Matrix3d so3CTJwHessian(Tangent c, double a, const Matrix3d& J, const Vector3d& w, const Vector3d& lam);

// d2/dxi2 (xi = (w, v)) of lam^T (C(h w)^T J w, m v): the momentum part of lgviResidual's r on SO(3)xR^3 (the rest,
// - b - h Tr f^+, belongs to the transcription's wrenches).
Matrix6d lgviMomentumHessian(const RigidBodyInertia& inertia, const LgviOptions& o, double h, const Vector6d& xi,
                             const Vector6d& lam);
// d2/dxi2 of lam^T lgviNextMomentum(xi) = lam^T (C(-h w)^T J w, tau(h w)^T m v) on SO(3)xR^3.
Matrix6d lgviNextMomentumHessian(const RigidBodyInertia& inertia, const LgviOptions& o, double h, const Vector6d& xi,
                                 const Vector6d& lam);
// d2/dz2 of lam^T dmoc::poseRows (eq. (9) on SO(3)xR^3: vee(E - E^T)/2 with E = (R_k tau(h w))^T R_{k+1}, and
// x_{k+1} - x_k - h R_k v) with R_k = Rk0 exp(thk^), R_{k+1} = R10 exp(th1^), z = (thk, w, v, th1); the rows are
// linear in x_k, x_{k+1}.
Matrix12d lgviPoseRowsHessian(const LgviOptions& o, double h, const Matrix3d& Rk0, const Vector3d& thk,
                              const Vector6d& xi, const Matrix3d& R10, const Vector3d& th1, const Vector6d& lam);
// d2/dtheta2 of a^T Rbar exp(theta^) b (world point or force of a body vector b in a chart, projected on a).
Matrix3d chartBilinearHessian(const Vector3d& a, const Matrix3d& Rbar, const RotationJet& chart, const Vector3d& b);

}  // namespace varsim
