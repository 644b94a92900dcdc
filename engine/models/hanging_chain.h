// A chain (rope) of rigid rods: rod 1's tail pinned at the origin, each further rod's tail joined
// to the previous rod's head by a ball joint. Released at rest as a straight line at `angle` from
// the downward vertical in the x–z plane (π/2 = horizontal, the whip), optionally with an
// out-of-plane tilt so the motion is truly 3-D. N up to kMaxRods.
#pragma once
#include <Eigen/Core>

#include "engine/models/rod_system.h"

namespace varsim {

struct HangingChainConfig {
  int rods = 20;                             // 1..HangingChain::kMaxRods
  double rodMass = 0.25;                     // kg per rod
  double rodLength = 0.25;                   // m per rod
  double angle = 1.5707963267948966;         // rad from the downward vertical (π/2: horizontal)
  double tilt = 0.0;                         // rad out of the x–z plane (about z)
  Eigen::Vector3d gravity{0.0, 0.0, -9.81};  // m/s²
  double tipMass = 0.0;                      // kg point mass on the last head (0 = none)
};

class HangingChain {
 public:
  // What the model builds; the scene's `rods` range is what the sweeps showed sane.
  static constexpr int kMaxRods = 20000;
  explicit HangingChain(const HangingChainConfig& config);  // throws BadInput on bad sizes
  const HangingChainConfig& config() const { return config_; }
  RodSystem& system() { return system_; }
  const RodSystem& system() const { return system_; }
  int rodCount() const { return config_.rods; }
  int tipBody() const { return config_.tipMass > 0 ? config_.rods : config_.rods - 1; }
  BodyPoint tipPoint() const { return config_.tipMass > 0 ? BodyPoint{config_.rods, 0} : BodyPoint{config_.rods - 1, +1}; }

 private:
  HangingChainConfig config_;
  RodSystem system_;
};

}  // namespace varsim
