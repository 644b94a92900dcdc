// engine/floating/shape_control.cpp — joint servo with internal torques, closed shape loops and the greedy
// reorientation planner (simulation of each candidate loop on a copy of the stepper).
#include "engine/floating/shape_control.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "engine/lie/so3.h"
#include "engine/sim/errors.h"

namespace varsim::floating {

VectorXd servoTorque(const FloatingChain& chain, const VectorXd& r, const VectorXd& rdot, const VectorXd& rRef,
                     const VectorXd& rdotRef, double wn, double zeta) {
  const int m = chain.joints();
  const MatrixXd M = chain.massMatrix(r);
  const MatrixXd Mxr = M.topRightCorner(6, m);
  const MatrixXd Mred = M.bottomRightCorner(m, m) - Mxr.transpose() * M.topLeftCorner<6, 6>().ldlt().solve(Mxr);
  return Mred * (wn * wn * (rRef - r) + 2.0 * zeta * wn * (rdotRef - rdot));
}

void ShapeLoop::reference(const VectorXd& rest, double t, VectorXd& r, VectorXd& rdot) const {
  const double w = 2.0 * M_PI / period, phi = w * std::clamp(t, 0.0, period);
  const bool moving = t >= 0.0 && t <= period;
  r = rest, rdot = VectorXd::Zero(rest.size());
  r(a) += amplitude * (1.0 - std::cos(phi));
  r(b) += sign * amplitude * std::sin(phi);
  if (moving) rdot(a) = amplitude * w * std::sin(phi), rdot(b) = sign * amplitude * w * std::cos(phi);
}

void easeReference(const VectorXd& from, const VectorXd& to, double duration, double t, VectorXd& r, VectorXd& rdot) {
  const double s = std::clamp(t / duration, 0.0, 1.0);
  r = from + (3 * s * s - 2 * s * s * s) * (to - from);
  rdot = (t >= 0.0 && t <= duration) ? VectorXd((6 * s - 6 * s * s) / duration * (to - from))
                                     : VectorXd(VectorXd::Zero(to.size()));
}

Matrix3d simulateLoop(const FloatingStepper& stepper, const VectorXd& rest, const ShapeLoop& loop, double wn,
                      double settle) {
  FloatingStepper copy = stepper;
  // A prediction: steps finer than 1/60 s would only refine it and multiply the planning cost.
  if (copy.stepSize() < 1.0 / 60.0) copy.setStepSize(1.0 / 60.0);
  const double h = copy.stepSize();
  const long steps = std::lround((loop.period + settle) / h);
  VectorXd r, rd;
  for (long k = 0; k < steps; ++k) {
    loop.reference(rest, (k + 1) * h, r, rd);
    FloatingForces f;
    f.jointTorque = servoTorque(copy.chain(), copy.r(), copy.velocity().tail(copy.chain().joints()), r, rd, wn);
    copy.step(f);
  }
  return copy.pose().R;
}

bool planLoop(const FloatingStepper& stepper, const VectorXd& rest, const Matrix3d& target, double period, double wn,
              double maxAmplitude, int levels, double tolerance, ShapeLoop& best, double& predictedError) {
  const int m = stepper.chain().joints();
  const double now = so3::log(target.transpose() * stepper.pose().R).norm();
  predictedError = now;
  if (now <= tolerance) return false;
  bool found = false;
  for (int a = 0; a < m; ++a)
    for (int b = a + 1; b < m; ++b)
      for (double sign : {1.0, -1.0})
        for (int j = 0; j < levels; ++j) {
          const ShapeLoop loop{a, b, sign, maxAmplitude * std::ldexp(1.0, -j), period};
          double err;
          try {
            err = so3::log(target.transpose() * simulateLoop(stepper, rest, loop, wn)).norm();
          } catch (const SimulationDiverged&) {
            continue;  // a candidate the integrator cannot take at this h is simply not chosen
          }
          if (err < predictedError - 1e-3) predictedError = err, best = loop, found = true;
        }
  return found;
}

}  // namespace varsim::floating
