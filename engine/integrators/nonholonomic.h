// engine/integrators/nonholonomic.h — the nonholonomic Lie group integrator of seed 000 eqs. (16)-(17)
// (App. A NholInt) for any model behind NonholonomicModel<N> and any group behind a small traits struct
// (Se2Group here; an Se3Group with the same members is all SE(3) needs), plus the explicit car and
// snakeboard updates of Sec. 5.2 (ERRATA: they are (16)-(17) with C_TLN, exact for that choice).
//
// One step k -> k+1 (alpha in [0, 1], r_{k+alpha} = r_k + alpha h u_k, E = [e_1 .. e_b]):
//   xi_k  = E(r_{k+alpha}) z_k - A(r_{k+alpha}) u_k       (Omega_k along e_b(r_{k+alpha}): ERRATA)
//   mu_k  = dl/dxi(r_{k+alpha}, u_k, xi_k)
//   E(r_k)^T [C(h xi_k)^T mu_k - nu^-_k] = 0                                  (symmetry momenta)
//   P^+_k - P^-_k = 0 on the forced shape coordinates, with                   (shape equations)
//     P^+_k = dl/du_{k+alpha} - h(1-alpha) dl/dr_{k+alpha} - A(r_k)^T C(h xi_k)^T mu_k - h(1-alpha) f_{k+alpha}
//     P^-_k = pi^-_k - A(r_k)^T nu^-_k
//   g_{k+1} = g_k tau(h xi_k),  r_{k+1} = r_k + h u_k,
//   nu^-_{k+1} = C(-h xi_k)^T mu_k,  pi^-_{k+1} = dl/du_{k+alpha} + h alpha dl/dr_{k+alpha} + h alpha f_{k+alpha}.
// This is eq. (16) rearranged into left/right momenta at node k. Shape coordinates are either forced
// (f_{k+alpha} given, u_k unknown) or prescribed (u_k given: the car's steering, a gait); the unknowns
// (u on forced coordinates, z) are found by Newton with a central-difference Jacobian.
// Start (discrete Legendre transform, as ERRATA "initialization"): nu^-_0 = dl/dxi(r0, rdot0, xi0) and
// pi^-_0 = dl/du(r0, rdot0, xi0), the continuous momenta at t = 0.
#pragma once

#include <vector>

#include "engine/lie/se2.h"
#include "engine/models/car.h"
#include "engine/models/nonholonomic_model.h"
#include "engine/models/snakeboard.h"

namespace varsim {

// The group as the integrator sees it. SE(3) follows by providing the same members over se3::.
struct Se2Group {
  static constexpr int dim = 3;
  using Pose = se2::Pose2;
  using Algebra = Eigen::Vector3d;
  using Matrix = Eigen::Matrix3d;
  static Pose retract(Retraction tau, const Algebra& v) { return se2::retract(tau, v); }
  static Matrix tangentInverse(Tangent c, const Algebra& v) { return se2::tangentInverse(c, v); }
};

struct NonholonomicSettings {
  double alpha = 0.5;                       // quadrature point in [0, 1]; 1/2 is second order (ERRATA)
  Retraction retraction = Retraction::Exp;  // tau in g_{k+1} = g_k tau(h xi_k)
  Tangent tangent = Tangent::Tln;           // C in DEP, eq. (17); Tln gives the paper's explicit updates
  double newtonTolerance = 1e-14;           // |residual|_inf <= tol * momentum scale, in [1e-16, 1e-6]
  int maxNewtonIterations = 30;             // >= 1; exceeded -> SimulationDiverged
};

template <class Group>
struct NonholonomicState {
  typename Group::Pose g;             // g_k
  Eigen::VectorXd r;                  // r_k
  Eigen::VectorXd u;                  // u_{k-1}: last segment's shape velocity (zero before the first step)
  Eigen::VectorXd z;                  // z_{k-1}: last segment's symmetry coordinates
  typename Group::Algebra xi;         // xi_{k-1} (the continuous xi0 before the first step)
  typename Group::Algebra nuMinus;    // left group momentum at node k
  Eigen::VectorXd piMinus;            // left shape momentum at node k (before subtracting A(r_k)^T nu^-)
  int newtonIterations = 0;           // of the last step
  double residual = 0.0;              // final |residual|_inf of the last step
};

template <class Group>
class NonholonomicIntegrator {
 public:
  using Pose = typename Group::Pose;
  using Algebra = typename Group::Algebra;
  using Model = NonholonomicModel<Group::dim>;
  using State = NonholonomicState<Group>;

  // prescribed[i] == true: shape coordinate i has a given velocity; false: it is driven by a force.
  // The model must outlive the integrator. Throws BadInput on a size mismatch or bad settings.
  NonholonomicIntegrator(const Model& model, std::vector<bool> prescribed, NonholonomicSettings settings = {});

  // xi0 = E(r0) z0 - A(r0) rdot0 (so it satisfies the constraints) and the discrete Legendre start.
  State start(const Pose& g0, const Eigen::VectorXd& r0, const Eigen::VectorXd& rdot0, const Eigen::VectorXd& z0) const;
  // One step: uPrescribed holds u_k on the prescribed coordinates, force holds f_{k+alpha} on the forced
  // ones (other entries ignored; both of size shapeDim). Throws SimulationDiverged naming the quantity,
  // with s unchanged, if Newton fails or anything becomes non-finite.
  void step(State& s, double h, const Eigen::VectorXd& uPrescribed, const Eigen::VectorXd& force) const;

  // Pieces of the scheme, public for tests: the body velocity of a segment and the shape momentum
  // P^-_k on every coordinate.
  Algebra segmentVelocity(const Eigen::VectorXd& rA, const Eigen::VectorXd& u, const Eigen::VectorXd& z) const;
  Eigen::VectorXd leftShapeMomentum(const State& s) const;
  const NonholonomicSettings& settings() const { return settings_; }

 private:
  struct Trial;
  Trial evaluate(const State& s, double h, const Eigen::VectorXd& x, const Eigen::VectorXd& uPrescribed,
                 const Eigen::VectorXd& force) const;
  const Model* model_;
  std::vector<bool> prescribed_;
  std::vector<int> forced_;  // indices of the forced shape coordinates
  NonholonomicSettings settings_;
};

extern template class NonholonomicIntegrator<Se2Group>;

// The shape moving linearly over a step, r(t_k + tau) = r_k + tau u_k (u_k the segment's shape rate): at the
// quadrature point tau = alpha h in eqs. (16)-(17) (r_{k+alpha}: the general integrator, the car's
// sigma_{k+alpha}, the snakeboard's phi_{k+alpha}) and at the RK stages of engine/integrators/vehicle_rk.cpp.
// One expression (tau times the rate, then the sum) so every update rounds alike; R a scalar, a vector or a
// complex step.
template <class R, class U>
R shapeOnSegment(const R& rk, const U& uk, double tau) {
  return rk + tau * uk;
}

// ---- Explicit car update (seed 000 Sec. 5.2.1, reference/README.md "car_sinusoidal.csv") ----------
// The wheel-rate equation in left/right momentum form:
//   (I0 + c sigma_k sigma_{k+alpha}) u_k = p^-_k + h (1-alpha) f_{k+alpha},
//   p^-_{k+1} = (I0 + c sigma_{k+1} sigma_{k+alpha}) u_k + h alpha f_{k+alpha},
// with sigma_{k+alpha} = sigma_k + alpha h u^sigma_k, omega_k = (rho/l) sigma_{k+alpha} u_k, v_k = rho u_k,
// g_{k+1} = g_k exp(h (omega_k, v_k, 0)), psi_{k+1} = psi_k + h u_k, sigma_{k+1} = sigma_k + h u^sigma_k.
// Start: p^-_0 = (I0 + c sigma_0^2) psi_dot(0). Subtracting the two lines gives the printed update.
struct CarState {
  se2::Pose2 g;           // pose of the rear-axle frame at node k
  double psi = 0.0;       // rad, rear-wheel rolling angle
  double sigma = 0.0;     // tan of the steering angle
  double pMinus = 0.0;    // kg m^2/s, left momentum of the rear-wheel equation at node k
  // The last segment (k-1 -> k), for diagnostics; before the first step: the continuous start.
  double u = 0.0;         // rad/s, wheel rate u_{k-1}
  double sigmaMid = 0.0;  // sigma_{k-1+alpha}
  double torque = 0.0;    // N m, f_{k-1+alpha}
  double steerRate = 0.0; // 1/s, u^sigma_{k-1}
};

CarState carStart(const CarParams& p, const se2::Pose2& g0, double psi0, double sigma0, double psiDot0);
// The explicit update as a pure map (state k, controls of segment k) -> state k+1: the one code path that both
// carStep and the DMOC transcription (engine/control/car_dmoc.h) evaluate. Throws like carStep.
CarState carNext(const CarParams& p, double alpha, double h, const CarState& s, double steerRate, double torque);
// Explicit step with the segment's steering velocity u^sigma_k and torque f_{k+alpha}. Throws
// SimulationDiverged (state unchanged) on a non-finite or non-positive effective inertia.
void carStep(const CarParams& p, double alpha, double h, CarState& s, double steerRate, double torque);

// ---- Explicit snakeboard update (Sec. 5.2.2 with ERRATA; reference "snakeboard_gait.csv") -------------
// Shape fully prescribed: u_k = (r_{k+1} - r_k)/h, phi_{k+alpha} = phi_k + alpha h u^phi_k,
//   zeta_k = (p_k - I u^psi_k e1(phi_k)^1) / (e1(phi_k)^T D e1(phi_{k+alpha})),  xi_k = zeta_k e1(phi_{k+alpha}),
//   mu_k = D xi_k + (I u^psi_k, 0, 0),  g_{k+1} = g_k exp(h xi_k),  p_{k+1} = <mu_k, e1(phi_{k+1})>,
// i.e. <mu_k - mu_{k-1}, e1(phi_k)> = 0 (the ad terms of C_TLN vanish because mu^3 = 0).
struct SnakeboardState {
  se2::Pose2 g;        // board pose at node k
  double psi = 0.0;    // rad, rotor angle
  double phi = 0.0;    // rad, steering angle
  double p = 0.0;      // kg m^2/s, momentum p_k = <mu_{k-1}, e1(phi_k)> (the continuous p at the start)
  // The last segment (k-1 -> k), zero before the first step.
  double uPsi = 0.0, uPhi = 0.0, zeta = 0.0;
  Vector3d xi = Vector3d::Zero();
};

SnakeboardState snakeboardStart(const se2::Pose2& g0, double psi0, double phi0, double p0);
// The explicit update as a pure map (node k, prescribed shape at node k+1) -> node k+1: the one code path that
// both snakeboardStep and the DMOC transcription (engine/control/snakeboard_dmoc.h) evaluate. Throws like
// snakeboardStep.
SnakeboardState snakeboardNext(const SnakeboardParams& p, double alpha, double h, const SnakeboardState& s,
                               double psiNext, double phiNext);
// Explicit step to the prescribed shape (psiNext, phiNext). Throws SimulationDiverged (state unchanged)
// when e1(phi_k)^T D e1(phi_{k+alpha}) <= 0 (|phi| near pi/2 or a steering jump) or anything is non-finite.
void snakeboardStep(const SnakeboardParams& p, double alpha, double h, SnakeboardState& s, double psiNext,
                    double phiNext);

}  // namespace varsim
