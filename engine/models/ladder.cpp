// Ladder topology and horizontal initial pose (see ladder.h); all constraints hold exactly at t = 0.
#include "engine/models/ladder.h"

#include <algorithm>

#include "engine/sim/errors.h"

namespace varsim {

Ladder::Ladder(const LadderConfig& config) : config_(config), system_(config.gravity) {
  const int N = config.links;
  if (N < 1 || N > kMaxLinks)
    throw BadInput("ladder: links = " + std::to_string(N) + ": allowed integer in [1, " + std::to_string(kMaxLinks) + "]");
  const double l = config.rodLength;
  const int n = 3 * N + 1;
  // Rod j (1-based): j mod 3 == 1 rung k = (j−1)/3 at x = k l; j mod 3 == 2 upper rail from x = k l
  // (k = (j−2)/3); j mod 3 == 0 lower rail from x = (k−1) l (k = j/3).
  std::vector<RodSystem::RodPose> rods(static_cast<size_t>(n));  // added at once: one growth of the coordinates
  for (int j = 1; j <= n; ++j) {
    Eigen::Vector3d& centre = rods[size_t(j - 1)].centre;
    Eigen::Vector3d& u = rods[size_t(j - 1)].direction;
    if (j % 3 == 1) {
      centre = {double((j - 1) / 3) * l, 0.0, -0.5 * l};
      u = {0.0, 0.0, -1.0};
    } else if (j % 3 == 2) {
      centre = {(double((j - 2) / 3) + 0.5) * l, 0.0, 0.0};
      u = {1.0, 0.0, 0.0};
    } else {
      centre = {(double(j / 3) - 0.5) * l, 0.0, -l};
      u = {1.0, 0.0, 0.0};
    }
  }
  system_.addRods(config.rodMass, l, rods);
  const auto rod = [](int j) { return j - 1; };  // 1-based paper numbering → body index
  system_.addPin({rod(1), -1}, Eigen::Vector3d::Zero());
  system_.addPin({rod(2), -1}, Eigen::Vector3d::Zero());
  for (int j = 3; j <= n; ++j) {
    const int parent = j % 3 == 2 ? j - 3 : j - 2;
    system_.addJoint({rod(j), -1}, {rod(parent), +1});
    if (j == 3 && config.duplicateFirstJoint) system_.addJoint({rod(j), -1}, {rod(parent), +1}, "joint rod 3 tail - rod 1 head (duplicate)");
  }
  for (int k = 1; k <= N; ++k) system_.addJoint({rod(3 * k), +1}, {rod(3 * k + 1), +1});
}

Eigen::VectorXd Ladder::linkSpeeds(const Eigen::VectorXd& v) const {
  Eigen::VectorXd out(config_.links);
  for (int k = 1; k <= config_.links; ++k) {
    double s = 0.0;
    for (int body : linkRods(k)) s = std::max(s, system_.endSpeed(body, v));
    out[k - 1] = s;
  }
  return out;
}

double Ladder::initialEnergy() const { return system_.potentialEnergy(system_.initialState().q); }

}  // namespace varsim
