// Chaplygin sleigh built from one rod lying on the ground plane z = 0: both rod ends held on the
// plane (holonomic rows), the rod's unit-length row, and a knife edge (blade) at the tail along the
// rod: the tail's velocity across the blade is (e_z × u)·ṗ_tail = w (nonholonomic, seed 001 Sec. 4
// with γ; w = 0 is the classic sleigh, w ≠ 0 a prescribed side slip). The centre of mass sits a = l/2
// ahead of the blade, so (Bloch, Nonholonomic Mechanics §1.7) with v the blade's forward speed and ω
// the yaw rate: m v̇ = m a ω², (I + m a²) ω̇ = −m a v ω, I = m l²/12, and E = ½ m v² + ½ (I + m a²) ω²
// is conserved for w = 0: the sleigh stops turning and glides straight with v → √(2E/m).
#pragma once
#include <Eigen/Core>

#include "engine/models/rod_system.h"

namespace varsim {

struct SleighConfig {
  double mass = 5.0;      // kg
  double length = 1.0;    // m (blade at the tail, centre of mass a = l/2 ahead)
  double speed = 1.0;     // m/s, initial forward speed of the blade along u
  double yawRate = 2.0;   // rad/s, initial
  double heading = 0.0;   // rad, initial direction of u from world x
  double sideSlip = 0.0;  // m/s, w of the blade row
};

class Sleigh {
 public:
  explicit Sleigh(const SleighConfig& config);  // BadInput on mass/length <= 0
  const SleighConfig& config() const { return config_; }
  RodSystem& system() { return system_; }
  const RodSystem& system() const { return system_; }
  int bladeConstraint() const { return blade_; }
  // Planar pose of the blade point (x, y) and heading θ of u.
  Eigen::Vector3d pose(const Eigen::VectorXd& q) const;
  // Forward speed of the blade along u and yaw rate ω = (u × u̇)_z / |u|².
  double forwardSpeed(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const;
  double yawRate(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const;
  // Reduced-model energy ½ m v² + ½ (I + m a²) ω² with I = m l²/12, a = l/2.
  double reducedEnergy(double v, double omega) const;

 private:
  SleighConfig config_;
  RodSystem system_;
  int blade_ = -1;
};

}  // namespace varsim
