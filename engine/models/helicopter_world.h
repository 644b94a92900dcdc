// engine/models/helicopter_world.h — the helicopter's terrain: flat ground (z = 0) with landing pads and a
// canyon of solid rock walls (oriented boxes), a signed-distance query (contact now, clearance constraints
// for optimal control later) and a penalty contact force for points of the vehicle.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "engine/lie/lie_types.h"

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

// Penalty contact per point (documented limitation: explicit penalty, so the spring must stay soft enough
// for k h^2 / m << 1 at the scene's step; the defaults give a static sag of ~5 cm under the skids).
struct ContactSettings {
  double stiffness = 3.0e4;    // N/m per point
  double damping = 2.0e3;      // N s/m per point, on the approach speed only (no sticking)
  double friction = 0.6;       // Coulomb coefficient
  double slipDamping = 4.0e3;  // N s/m per point: regularised Coulomb, -min(mu F_n, c |v_t|) v_t/|v_t|
};

class HelicopterWorld {
 public:
  // Pads "start" (0,0), "east" (60,40), "canyon" (330,68) and a canyon of two legs, (120,0)->(250,0) and
  // (250,0)->(380,110), each with two walls 10 m thick, 40 m high, leaving a corridor 36 m wide.
  static HelicopterWorld standard();

  const std::vector<LandingPad>& pads() const { return pads_; }
  const std::vector<RockBox>& rocks() const { return rocks_; }
  void addPad(LandingPad pad) { pads_.push_back(std::move(pad)); }
  void addRock(const RockBox& rock) { rocks_.push_back(rock); }

  // Signed distance from p to the solid (ground z <= 0 and rocks); negative inside. `normal` receives the
  // outward unit normal of the nearest surface.
  double signedDistance(const Vector3d& p, Vector3d* normal = nullptr) const;
  // World force on a vehicle point at p moving with world velocity `vel` (zero when not touching).
  Vector3d contactForce(const Vector3d& p, const Vector3d& vel, const ContactSettings& c) const;
  // The pad whose square contains p (horizontally), or nullptr.
  const LandingPad* padAt(const Vector3d& p) const;

 private:
  std::vector<LandingPad> pads_;
  std::vector<RockBox> rocks_;
};

}  // namespace varsim
