// engine/models/snakeboard.h — the snakeboard of seed 000 Sec. 5.2.2 with the ERRATA connection and
// momentum: shape r = (psi, phi) (rotor/rider-torso angle, wheel steering angle), board pose (theta, x, y)
// at its centre in SE(2). Axle at body x = -l steered by +phi, axle at x = +l by -phi (the printed
// constraints; ERRATA note). Allowed body velocities xi = zeta e1(phi), e1 = (sin 2phi, -2l cos^2 phi, 0).
// Also the gait (psi = A_psi sin(w t), phi = A_phi sin(w t + delta)) and the reduced continuous ODE.
#pragma once

#include "engine/lie/lie_types.h"
#include "engine/models/nonholonomic_model.h"

namespace varsim {

struct SnakeboardParams {
  double m = 4.0;   // kg, > 0: total mass
  double I = 0.2;   // kg m^2, in (0, m l^2): rotor (rider torso) inertia, part of the yaw inertia m l^2
  double J = 0.01;  // kg m^2, > 0: inertia of each wheel axle about its steering pivot
  double l = 0.4;   // m, > 0: distance from the board centre to each axle
};

// Throws BadInput naming the field unless all are finite and > 0 and I < m l^2 (else the kinetic energy
// 1/2[(m l^2 - I) theta_dot^2 + I (theta_dot + psi_dot)^2 + ...] is not positive definite).
void validateSnakeboardParams(const SnakeboardParams& p);

namespace snakeboard {
// e1(phi) = 2 l cos^2 phi (tan phi / l, -1, 0) = (sin 2phi, -2l cos^2 phi, 0) (eq. (19)): with zeta > 0
// the board moves along body -x and turns with sign(phi).
Vector3d e1(double l, double phi);
// D = diag(m l^2, m, m): dl/dxi = D xi + (I u^psi, 0, 0) (ERRATA: u^psi, not u^phi).
Vector3d lockedInertia(const SnakeboardParams& p);
// Body velocity for the scalar momentum p = <dl/dxi, e1(phi)> and rotor rate psi_dot:
// xi = zeta e1(phi), zeta = (p - I psi_dot sin 2phi)/(4 m l^2 cos^2 phi) (ERRATA Omega = p/(4ml^2cos^2 phi)).
Vector3d velocityOfMomentum(const SnakeboardParams& p, double phi, double psiDot, double mom);
double momentumOfVelocity(const SnakeboardParams& p, double phi, double psiDot, const Vector3d& xi);
// Kinetic energy 1/2[m l^2 w^2 + m |v|^2 + 2 I psi_dot w + I psi_dot^2 + 2 J phi_dot^2].
double energy(const SnakeboardParams& p, double psiDot, double phiDot, const Vector3d& xi);
// Largest |phi| the model accepts: at |phi| = pi/2 both axles point sideways and e1 vanishes.
constexpr double kMaxSteer = 1.4;
}  // namespace snakeboard

// The snakeboard as a NonholonomicModel on SE(2): b = 1, basis e1(phi),
// [A(r)] = [[(I/(m l^2)) sin^2 phi, 0], [-(I/(2 m l)) sin 2phi, 0], [0, 0]] (ERRATA entry (2,1)),
// l = 1/2[I (u^psi)^2 + 2J (u^phi)^2 + 2 I u^psi w + m l^2 w^2 + m (vx^2 + vy^2)] (with the ERRATA 1/2).
class SnakeboardModel : public NonholonomicModel<3> {
 public:
  explicit SnakeboardModel(SnakeboardParams p) : p_(p) {}
  const SnakeboardParams& params() const { return p_; }
  int shapeDim() const override { return 2; }
  int symmetryDim() const override { return 1; }
  AlgebraMatrix connection(const Eigen::VectorXd& r) const override;
  AlgebraMatrix symmetryBasis(const Eigen::VectorXd& r) const override;
  double lagrangian(const Eigen::VectorXd& r, const Eigen::VectorXd& u, const Algebra& xi) const override;
  Eigen::VectorXd dLdu(const Eigen::VectorXd& r, const Eigen::VectorXd& u, const Algebra& xi) const override;
  Eigen::VectorXd dLdr(const Eigen::VectorXd& r, const Eigen::VectorXd& u, const Algebra& xi) const override;
  Algebra dLdxi(const Eigen::VectorXd& r, const Eigen::VectorXd& u, const Algebra& xi) const override;

 private:
  SnakeboardParams p_;
};

// The auto-gait: psi = A_psi sin(phase), phi = phi_0 + A_phi sin(phase + delta), phase = w t (+ offset).
// The steering trim phi_0 bends the path into a curve; |phi_0| + A_phi <= snakeboard::kMaxSteer.
struct SnakeboardGait {
  double psiAmplitude = 1.0;  // rad, A_psi
  double phiAmplitude = 0.5;  // rad, A_phi, <= snakeboard::kMaxSteer
  double omega = 3.14159265358979323846;  // rad/s, w (cycle 2 pi / w)
  double delta = 0.0;         // rad, phase of the steering relative to the rotor
  double phiOffset = 0.0;     // rad, phi_0: steering trim the wheels oscillate about
  // (psi, phi) and their time derivatives at gait phase `phase` (w is the phase rate).
  Eigen::Vector2d shape(double phase) const;
  Eigen::Vector2d shapeRate(double phase) const;
};

// The reduced continuous equations with the shape prescribed (reference/README.md "snakeboard_gait"):
// state (theta, x, y, p); p_dot = 2 I cos^2 phi phi_dot psi_dot - tan phi phi_dot p, xi = velocityOfMomentum.
using SnakeboardOdeState = Eigen::Vector4d;
SnakeboardOdeState snakeboardOdeRhs(const SnakeboardParams& p, const SnakeboardOdeState& s, const Eigen::Vector2d& r,
                                    const Eigen::Vector2d& rDot);

}  // namespace varsim
