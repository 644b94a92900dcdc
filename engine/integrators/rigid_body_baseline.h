// engine/integrators/rigid_body_baseline.h — what the non-variational
// rigid-body baselines of seed 000 Sec. 3.3 (RK2, implicit RK2, RK4,
// Lie-Newmark) share: the state (x, q, omega, v) with a unit quaternion, the
// continuous body equations (seed 000 eqs. (7)-(8)), the blow-up checks and the
// saved-state layout, so that scenes and the study runner can hold any of them
// behind one pointer.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/integrators/step_time.h"
#include "engine/lie/quaternion.h"
#include "engine/models/rigid_body.h"

namespace varsim {

// A state whose |omega| or |v| exceeds this (rad/s, m/s) counts as overflow:
// SimulationDiverged. RK methods renormalise q, so an unstable step shows up as
// a growing velocity long before a NaN.
constexpr double kRigidBaselineOverflow = 1e8;

class RigidBodyBaseline {
 public:
  virtual ~RigidBodyBaseline() = default;

  // xi0 = (omega, v): continuous body velocity at t0. Throws BadInput on
  // non-finite data.
  void initialize(const se3::Pose& g0, const Vector6d& xi0, double t0);
  // One step; f is the body wrench field (may be empty). Throws
  // SimulationDiverged (state unchanged) on a non-finite or overflowing state
  // or a Newton failure, BadInput on h <= 0 or before initialize.
  virtual void step(double h, const WrenchField& f) = 0;
  virtual const char* name() const = 0;               // "rk2", "rk2i", "rk4", "newmark", "newmark_so3xr3"
  virtual int newtonIterations() const { return 0; }  // of the last step (implicit methods)

  const RigidBodyInertia& inertia() const { return inertia_; }
  const se3::Pose& pose() const { return g_; }         // R from the unit quaternion
  const quat::Quat& quaternion() const { return q_; }  // as integrated (either sign)
  const Vector6d& xi() const { return xi_; }           // body velocity (omega, v)
  Vector6d momentumBody() const;                       // II xi = (J omega, m v)
  Vector6d spatialMomentum() const;                    // (R J w + x x R m v; R m v)
  double energy() const;                               // 1/2 xi^T II xi, J
  double time() const { return clock_.now(); }

  // Layout (16 numbers): q (4), x (3), xi (6), t_anchor, steps since anchor, h.
  std::vector<double> saveState() const;
  void loadState(const std::vector<double>& state);

  // Continuous body equations (seed 000 eqs. (7)-(8)): xi_dot = II^{-1}(ad*_xi
  // II xi + f), i.e. J w' = J w x w + tau, m v' = m v x w + F, with f = f(g,
  // xi, t).
  Vector6d acceleration(const se3::Pose& g, const Vector6d& xi, double t, const WrenchField& f) const;
  // d(xi_dot)/d(xi) of the inertial (gyroscopic) part at fixed wrench:
  // [[J^-1(hat(J w) - hat(w) J), 0], [hat(v), -hat(w)]]; the Jacobian the
  // implicit baselines' Newton uses (the wrench's own dependence on the state
  // is left out: Newton then converges linearly at rate O(h |df/dxi|), still to
  // round-off).
  Matrix6d accelerationJacobian(const Vector6d& xi) const;

  // How (w, v) couple in the rate the implicit kernel integrates: SE(3) body rates (eqs. (7)-(8), v' has the
  // v x w term) or the direct product SO(3)xR^3 with the translation rate F/m (the v x w term belongs to the
  // frame, which the SO(3)xR^3 Newmark carries by R' explicitly).
  enum class Coupling { SE3, DirectProduct };

 protected:
  explicit RigidBodyBaseline(RigidBodyInertia inertia);  // throws BadInput (validateInertia)
  void requireStep(double h) const;                      // BadInput before initialize or on a bad h
  // Renormalises q, checks finiteness and overflow (SimulationDiverged naming
  // the method and t + h, state unchanged), then commits the state and advances
  // the clock by h.
  void commit(double h, const quat::Quat& q, const Vector3d& x, const Vector6d& xi);
  // Solves y = c + hHalf * acceleration(pose(y), y, t, f) by Newton with
  // accelerationJacobian (the shared implicit kernel of rk2i and newmark);
  // pose(y) may depend on y. Returns the Newton iterations; throws
  // SimulationDiverged after maxIterations or on a non-finite iterate.
  template <class PoseOf>
  int solveVelocity(const Vector6d& c, double hHalf, double t, const WrenchField& f, const PoseOf& poseOf,
                    Vector6d& y, Coupling coupling = Coupling::SE3) const;

  RigidBodyInertia inertia_;
  Matrix3d Jinv_;
  quat::Quat q_ = quat::identity();
  Vector3d x_ = Vector3d::Zero();
  Vector6d xi_ = Vector6d::Zero();
  se3::Pose g_;
  StepTime clock_;
  bool initialized_ = false;

 private:
  [[noreturn]] void diverged(const std::string& what, double t) const;
};

// The baseline named `name` ("rk2", "rk2i", "rk4", "newmark", "newmark_so3xr3"); throws BadInput
// naming the allowed set.
std::unique_ptr<RigidBodyBaseline> makeRigidBodyBaseline(const std::string& name, const RigidBodyInertia& inertia);

// Quaternion rate q' = q (0, w) / 2 (body angular velocity w).
inline Vector4d quaternionRate(const quat::Quat& q, const Vector3d& w) {
  return 0.5 * quat::multiply(q, Vector4d(0.0, w.x(), w.y(), w.z()));
}

template <class PoseOf>
int RigidBodyBaseline::solveVelocity(const Vector6d& c, double hHalf, double t, const WrenchField& f,
                                     const PoseOf& poseOf, Vector6d& y, Coupling coupling) const {
  constexpr int kMaxIterations = 50;
  const double scale = 1.0 + c.norm();
  const bool direct = coupling == Coupling::DirectProduct;
  for (int it = 1; it <= kMaxIterations; ++it) {
    Vector6d rate = acceleration(poseOf(y), y, t, f);
    if (direct) rate.tail<3>() += y.head<3>().cross(y.tail<3>());  // F/m: drop the frame's v x w
    const Vector6d r = y - c - hHalf * rate;
    Matrix6d D = accelerationJacobian(y);
    if (direct) D.bottomRows<3>().setZero();
    const Matrix6d Jr = Matrix6d::Identity() - hHalf * D;
    const Vector6d dy = Jr.partialPivLu().solve(r);
    y -= dy;
    if (!y.allFinite() || y.lpNorm<Eigen::Infinity>() > kRigidBaselineOverflow) diverged("Newton iterate", t);
    if (dy.norm() <= 1e-14 * scale) return it;
  }
  diverged("Newton did not converge in " + std::to_string(kMaxIterations) + " iterations", t);
}

}  // namespace varsim
