// Chain of rods (see hanging_chain.h); all joints hold exactly in the initial pose.
#include "engine/models/hanging_chain.h"

#include <cmath>

#include "engine/sim/errors.h"

namespace varsim {

HangingChain::HangingChain(const HangingChainConfig& config) : config_(config), system_(config.gravity) {
  if (config.rods < 1 || config.rods > kMaxRods)
    throw BadInput("chain: rods = " + std::to_string(config.rods) + ": allowed integer in [1, " + std::to_string(kMaxRods) + "]");
  if (!(config.rodMass > 0) || !(config.rodLength > 0) || !(config.tipMass >= 0))
    throw BadInput("chain: rod mass and length must be > 0, tip mass >= 0");
  const double l = config.rodLength;
  // Direction at `angle` from −e_z towards +x, then turned by `tilt` about z.
  const Eigen::Vector3d u(std::sin(config.angle) * std::cos(config.tilt), std::sin(config.angle) * std::sin(config.tilt),
                          -std::cos(config.angle));
  std::vector<RodSystem::RodPose> rods;  // added at once: one growth of the coordinates
  rods.reserve(size_t(config.rods));
  for (int j = 0; j < config.rods; ++j) rods.push_back({(j + 0.5) * l * u, u});
  system_.addRods(config.rodMass, l, rods);
  system_.addPin({0, -1}, Eigen::Vector3d::Zero());
  for (int j = 1; j < config.rods; ++j) system_.addJoint({j, -1}, {j - 1, +1});
  if (config.tipMass > 0) {
    const int tip = system_.addParticle(config.tipMass, config.rods * l * u);
    system_.addJoint({tip, 0}, {config.rods - 1, +1});
  }
}

}  // namespace varsim
