// tests/tree_fixtures.h — random seed 003 trees for the derivative tests: every
// joint type, all three drives, constant transforms, branching, masses with
// full inertia on random frames.
#pragma once

#include <algorithm>
#include <random>

#include "engine/tree/tree.h"

namespace varsim::test {

inline tree::Tree randomTree(unsigned seed, int frames = 14) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> jointPick(0, 6);
  tree::Tree t;
  for (int f = 0; f < frames; ++f) {
    // Mostly deep (parent among the last three frames) with occasional branches from the world.
    const int parent =
        f == 0 ? tree::Tree::kWorld : std::max(-1, f - 1 - std::uniform_int_distribution<int>(0, 2)(rng));
    const int j = jointPick(rng);
    if (j == 6) {
      Eigen::Matrix4d g = Eigen::Matrix4d::Identity();
      g.topLeftCorner<3, 3>() =
          Eigen::AngleAxisd(u(rng) * 3, Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized()).toRotationMatrix();
      g.topRightCorner<3, 1>() = Eigen::Vector3d(u(rng), u(rng), u(rng));
      t.addFixed(parent, g);
    } else {
      const double r = u(rng);
      const tree::Drive d = r < 0.4 ? tree::Drive::Dynamic : (r < 0.7 ? tree::Drive::Kinematic : tree::Drive::Constant);
      t.addFrame(parent, static_cast<tree::Joint>(j), d, d == tree::Drive::Constant ? u(rng) : 0.0);
    }
    if (u(rng) > -0.3) {
      Eigen::Matrix3d A;
      A << u(rng), u(rng), u(rng), u(rng), u(rng), u(rng), u(rng), u(rng), u(rng);
      t.addMass(f, 1 + u(rng) * 0.5, A * A.transpose() + 0.1 * Eigen::Matrix3d::Identity());
    }
  }
  Eigen::VectorXd q(t.dof()), qd(t.dof()), kv(t.kinematicCount()), kr(t.kinematicCount());
  for (int i = 0; i < t.dof(); ++i) q(i) = u(rng), qd(i) = u(rng);
  for (int i = 0; i < t.kinematicCount(); ++i) kv(i) = u(rng), kr(i) = u(rng);
  t.setState(q, qd);
  t.setKinematic(kv, kr);
  return t;
}

}  // namespace varsim::test
