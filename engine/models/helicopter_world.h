// engine/models/helicopter_world.h — the helicopter's terrain: flat ground (z = 0) with landing pads and a
// canyon of solid rock walls (oriented boxes), a signed-distance query (contact now, clearance constraints
// for optimal control later) and a penalty contact force for points of the vehicle, with its exact
// derivatives (the LGVI evaluates it at the end of the step: lgvi_se3.h ImplicitWrench).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "engine/lie/se3.h"
#include "engine/models/helicopter.h"

namespace varsim {

struct LandingPad {
  std::string name;
  Eigen::Vector2d center = Eigen::Vector2d::Zero();  // m, on the ground plane
  double halfSize = 4.0;                             // m, square pad of side 2 halfSize
  bool contains(const Vector3d& p) const {
    return std::abs(p.x() - center.x()) <= halfSize && std::abs(p.y() - center.y()) <= halfSize;
  }
};

// A solid box rotated by `yaw` about world z.
struct RockBox {
  Vector3d center = Vector3d::Zero();       // m
  Vector3d halfExtents = Vector3d::Ones();  // m, > 0
  double yaw = 0.0;                         // rad
};
// Signed distance from p to the box (outside: Euclidean; inside: minus the depth) and its outward unit normal, which
// is also the gradient of the distance in p wherever that is differentiable (contact, planner clearance rows).
double rockDistance(const RockBox& b, const Vector3d& p, Vector3d& normal);

// Penalty contact per point: F_n = max(0, -k d - c v_n) along the outward normal (d < 0 inside), friction
// -min(mu F_n, c_t |v_t|) v_t/|v_t|. The defaults are the old EXPLICIT contact (node wrench; soft enough for
// k h^2 / m << 1 at 600 kg and h = 1/60, a static sag of ~5 cm; explicit-unstable below ~50 kg and sinking
// 0.2 m at 10 t: issue 15 item 10); implicitFor() gives the stiff contact for the end-of-step wrench.
struct ContactSettings {
  double stiffness = 3.0e4;    // N/m per point
  double damping = 2.0e3;      // N s/m per point, on the approach speed only (no sticking)
  double friction = 0.6;       // Coulomb coefficient
  double slipDamping = 4.0e3;  // N s/m per point: regularised Coulomb, -min(mu F_n, c |v_t|) v_t/|v_t|
  // m, >= 0: the normal damping ramps in as c min(1, -d / dampingDepth), so F_n is continuous at first touch.
  // 0: full damping from d = 0- (the old law; F_n jumps by -c v_n there). The implicit solve needs the
  // continuous law: with the jump, a point landing at 11 m/s has no end-of-step state balancing the step's
  // momentum (measured: Newton cycling at the jump) and no root exists.
  double dampingDepth = 0.0;

  // Stiff contact for a body of mass m resting on `support` points, evaluated implicitly (end of step): each
  // point carries m/support at natural frequency w_c = kStiffFrequency, critically damped, k = (m/support)
  // w_c^2, c = c_t = 2 (m/support) w_c. Static sag g / w_c^2 = 0.16 mm at 9.81 m/s^2, 1.6 mm at 100; a 2 m drop
  // (6.3 m/s) penetrates ~ v / (e w_c) = 9 mm at h -> 0 and less at larger h (backward Euler damps h w_c > 1).
  // dampingDepth = 0.1 mm (below the sag at g >= 6 m/s^2, so a resting body is fully damped).
  // Mass-proportional, so the same for 1 kg and 100 t; passive for every h because the force is implicit.
  static constexpr double kStiffFrequency = 250.0;  // rad/s
  static ContactSettings implicitFor(double mass, int support);
};

class HelicopterWorld {
 public:
  // Pads "start" (0,0), "east" (60,40), "canyon" (330,68) and a canyon of two legs, (120,0)->(250,0) and
  // (250,0)->(380,110), each with two walls 10 m thick, 40 m high, leaving a corridor 36 m wide.
  static HelicopterWorld standard();

  const std::vector<LandingPad>& pads() const { return pads_; }
  const std::vector<RockBox>& rocks() const { return rocks_; }
  // The canyon's centreline on the ground plane (m), entrance -> corner(s) -> exit: the way through it (the
  // planner's initial guess follows it). Empty without a canyon.
  const std::vector<Eigen::Vector2d>& corridor() const { return corridor_; }
  void addPad(LandingPad pad) { pads_.push_back(std::move(pad)); }
  void addRock(const RockBox& rock) { rocks_.push_back(rock); }

  // Signed distance from p to the solid (ground z <= 0 and rocks); negative inside. `normal` receives the
  // outward unit normal of the nearest surface.
  double signedDistance(const Vector3d& p, Vector3d* normal = nullptr) const;
  // World force on a vehicle point at p moving with world velocity `vel` (zero when not touching), and if
  // asked its derivatives dF/dp, dF/dvel (exact: where F != 0 the point is inside the solid, where the normal
  // is piecewise constant).
  Vector3d contactForce(const Vector3d& p, const Vector3d& vel, const ContactSettings& c, Matrix3d* dFdp = nullptr,
                        Matrix3d* dFdvel = nullptr) const;
  // Body wrench (torque about the body origin; force, body frame) of contactForce on the body points `points` of
  // a body at g moving with body twist xi = (omega, v) (point velocity R (v + omega x r)). If dPose/dXi are
  // given: its derivatives for the pose perturbation R -> R exp(theta^), x -> x + R y and for xi (as
  // lgvi_se3.h ImplicitWrenchJacobian).
  Vector6d contactWrench(const se3::Pose& g, const Vector6d& xi, const std::vector<Vector3d>& points,
                         const ContactSettings& c, Matrix6d* dPose = nullptr, Matrix6d* dXi = nullptr) const;
  // Elastic energy sum 1/2 k d^2 of the penetrating points (J): part of the total energy with penalty contact.
  double contactPotential(const se3::Pose& g, const std::vector<Vector3d>& points, const ContactSettings& c) const;
  // The pad whose square contains p (horizontally), or nullptr.
  const LandingPad* padAt(const Vector3d& p) const;

 private:
  std::vector<LandingPad> pads_;
  std::vector<RockBox> rocks_;
  std::vector<Eigen::Vector2d> corridor_;
};

// The helicopter's end-of-step (implicit) wrench, scene `helicopter` with contact=implicit: still-air drag plus, with
// a world, the penalty contact of its contact points (contact settings c). dPose, dXi (optional, both or neither) as
// in HelicopterWorld::contactWrench. One code path for the scene and the planner (engine/control/heli_dmoc.h).
Vector6d helicopterDissipativeWrench(const Helicopter& heli, const HelicopterWorld* world, const ContactSettings& c,
                                     const se3::Pose& g, const Vector6d& xi, Matrix6d* dPose, Matrix6d* dXi);

}  // namespace varsim
