// The square ladder chain of seed 001 Sec. 6 / Fig. 2, exactly as shared/reference/README.md reads
// the connectivity rule: n = 3N+1 rods, 4N+1 point joints (two of them pins at the origin), N closed
// loops, N+1 degrees of freedom. Rods (1-based) 1 and 2 have their tails pinned at the origin; rod
// j ≥ 3 has its tail joined to the head of rod j−3 if j mod 3 = 2, else of rod j−2; the heads of
// rods 3k and 3k+1 are joined (k = 1..N). Released at rest, horizontal in the x–z plane (z up):
// rungs 1, 4, 7, … hang down (u = −e_z), upper rail 2, 5, … along +x at z = 0, lower rail 3, 6, …
// along +x at z = −1 (for unit length).
#pragma once
#include <Eigen/Core>
#include <array>

#include "engine/models/rod_system.h"

namespace varsim {

struct LadderConfig {
  int links = 20;                            // N, 1..Ladder::kMaxLinks
  double rodMass = 10.0;                     // kg (paper: 10)
  double rodLength = 1.0;                    // m (paper: 1)
  Eigen::Vector3d gravity{0.0, 0.0, -9.81};  // m/s², world z up
  bool duplicateFirstJoint = false;          // state joint rod 3 tail – rod 1 head twice (redundancy tests)
};

class Ladder {
 public:
  // What the model builds (30 001 rods at the top); the scene's `links` range is what the sweeps showed sane.
  static constexpr int kMaxLinks = 10000;
  explicit Ladder(const LadderConfig& config);  // throws BadInput if links ∉ [1, kMaxLinks]
  const LadderConfig& config() const { return config_; }
  RodSystem& system() { return system_; }
  const RodSystem& system() const { return system_; }
  int rodCount() const { return 3 * config_.links + 1; }
  // Rods (0-based body indices) making up link k = 1..N: upper rail 3k−1, lower rail 3k, rung 3k+1
  // in the paper's 1-based numbering.
  std::array<int, 3> linkRods(int k) const { return {3 * k - 2, 3 * k - 1, 3 * k}; }
  int freeEndRod() const { return 3 * config_.links; }  // last rung (0-based), far from the pin
  // Whiplash profile: for each link k = 1..N the largest end speed among its three rods (m/s).
  Eigen::VectorXd linkSpeeds(const Eigen::VectorXd& v) const;
  // E(0) = −m g (N + (N+1)/2) l for the horizontal release under the default gravity.
  double initialEnergy() const;

 private:
  LadderConfig config_;
  RodSystem system_;
};

}  // namespace varsim
