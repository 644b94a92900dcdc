// engine/models/car.h — the car with simple dynamics of seed 000 Sec. 5.2.1 (Kelly & Murray kinematic car):
// shape r = (psi, sigma) (rear-wheel rolling angle, sigma = tan of the steering angle), pose (theta, x, y)
// of the rear-axle frame in SE(2), Lagrangian 1/2(I psi_dot^2 + K theta_dot^2 + m |x_dot|^2), connection
// eq. (18). Also the driver layer (throttle/brake/steer -> torque f^psi and steering velocity u^sigma,
// steering-angle limit, return to centre) and the reduced ODE used by the RK baselines.
#pragma once

#include <string>

#include "engine/lie/lie_types.h"
#include "engine/models/nonholonomic_model.h"

namespace varsim {

struct CarParams {
  double m = 2.0;     // kg, > 0: vehicle mass
  double I = 0.1;     // kg m^2, > 0: rear-wheel rolling inertia
  double K = 0.6;     // kg m^2, > 0: yaw inertia of the body
  double l = 1.5;     // m, > 0: wheelbase (rear to front axle)
  double rho = 0.35;  // m, > 0: wheel radius

  double I0() const { return I + m * rho * rho; }          // I + m rho^2 (the psi equation at sigma = 0)
  double c() const { return K * rho * rho / (l * l); }     // K rho^2 / l^2 (steering coupling)
  // Node energy of the rear-wheel momentum p = (I0 + c sigma^2) psi_dot: E = p^2 / (2 (I0 + c sigma^2)).
  double energyOfMomentum(double p, double sigma) const { return 0.5 * p * p / (I0() + c() * sigma * sigma); }
  double momentumOfRate(double psiDot, double sigma) const { return (I0() + c() * sigma * sigma) * psiDot; }
};

// Throws BadInput naming the field unless every parameter is finite and > 0.
void validateCarParams(const CarParams& p);

// The car as a NonholonomicModel on SE(2): shape (psi, sigma), no symmetry direction (b = 0: with the
// shape locked the car cannot move), [A(r)] = [[-(rho/l) sigma, 0], [-rho, 0], [0, 0]] (eq. (18)),
// l(r, u, xi) = 1/2 (I (u^psi)^2 + xi^T diag(K, m, m) xi).
class CarModel : public NonholonomicModel<3> {
 public:
  explicit CarModel(CarParams p) : p_(p) {}
  const CarParams& params() const { return p_; }
  int shapeDim() const override { return 2; }
  int symmetryDim() const override { return 0; }
  AlgebraMatrix connection(const Eigen::VectorXd& r) const override;
  AlgebraMatrix symmetryBasis(const Eigen::VectorXd& r) const override;
  double lagrangian(const Eigen::VectorXd& r, const Eigen::VectorXd& u, const Algebra& xi) const override;
  Eigen::VectorXd dLdu(const Eigen::VectorXd& r, const Eigen::VectorXd& u, const Algebra& xi) const override;
  Eigen::VectorXd dLdr(const Eigen::VectorXd& r, const Eigen::VectorXd& u, const Algebra& xi) const override;
  Algebra dLdxi(const Eigen::VectorXd& r, const Eigen::VectorXd& u, const Algebra& xi) const override;

 private:
  CarParams p_;
};

// Driver layer: what the pedals and the stick do. Torque and steering velocity are held constant over
// a step (the step's f_{k+alpha} and u^sigma_k).
struct CarDriveSettings {
  double maxTorque = 1.0;       // N m, >= 0: rear-wheel torque at full throttle
  double brakeTorque = 2.0;     // N m, >= 0: braking torque at full brake, opposing the wheel rate
  double brakeSpeed = 0.5;      // rad/s, > 0: wheel rate below which the brake fades (tanh(u / brakeSpeed))
  double maxSteerRate = 1.0;    // 1/s, >= 0: |u^sigma| at full stick (sigma = tan of the steering angle)
  double steerLimit = 0.6;      // rad, in (0, 1.5]: |steering angle| <= steerLimit, i.e. |sigma| <= tan
  bool returnToCentre = true;   // with the stick neutral and steer_rate = 0, sigma returns to 0
  double centreRate = 1.0;      // 1/s, >= 0: |u^sigma| of the return to centre
  bool brakeReverses = false;   // game convention: with the throttle released, the brake drives backwards
                                // (-maxTorque * brake) once the wheel rate is below 0.1 brakeSpeed
};

// The controls of one step (already sanitized): throttle, brake in [0, 1]; steer in [-1, 1], positive
// steers RIGHT (clockwise, sigma decreases) like a stick or wheel turned to the right.
struct CarControls {
  double throttle = 0.0;
  double brake = 0.0;
  double steer = 0.0;
};

struct CarCommand {
  double torque = 0.0;     // f^psi on the step, N m
  double steerRate = 0.0;  // u^sigma on the step, 1/s (after the steering limit)
};

// Maps controls to (f^psi, u^sigma). Override rule (per channel):
//  * torque: if throttle > 0 or brake > 0, f = maxTorque*throttle - brakeTorque*brake*tanh(uPrev/brakeSpeed);
//    otherwise f = constTorque (the `torque` parameter). With brakeReverses, throttle = 0 and
//    uPrev < 0.1 brakeSpeed (stopped or rolling back), the brake is a reverse throttle: f = -maxTorque*brake.
//  * steering: if steer != 0, u^sigma = -maxSteerRate*steer (right = clockwise); otherwise u^sigma = constSteerRate (the
//    `steer_rate` parameter), or, when that is 0 and returnToCentre is on, a return to sigma = 0 at
//    centreRate that lands exactly on 0.
//  * the steering limit then clips u^sigma so that |sigma + h u^sigma| <= tan(steerLimit) (a sigma already
//    outside is brought back, never pushed further out).
CarCommand carCommand(const CarDriveSettings& s, const CarControls& c, double constTorque, double constSteerRate,
                      double uPrev, double sigma, double h);

// The continuous reduced equations (the RK baselines; no multipliers): state (theta, x, y, psi, sigma,
// psi_dot), psi_ddot = (f - c sigma u^sigma psi_dot)/(I0 + c sigma^2), theta_dot = (rho/l) sigma psi_dot,
// (x_dot, y_dot) = rho psi_dot (cos theta, sin theta), sigma_dot = u^sigma.
using CarOdeState = Eigen::Matrix<double, 6, 1>;
CarOdeState carOdeRhs(const CarParams& p, const CarOdeState& s, double torque, double steerRate);

}  // namespace varsim
