// tests/random_rod_chain.h — a 3-rod hanging chain with a tip particle in a random pose with random
// rates (u̇ ⊥ u), seeded: the generic state the rigid-rod tests check identities and re-solves on
// (test_rigid_rod_spook, test_rigid_rod_spook_newton). Header-only, test use.
#pragma once
#include <Eigen/Core>
#include <Eigen/Geometry>

#include <random>

#include "engine/models/hanging_chain.h"

namespace varsim::test {

// A 3-rod chain in a random pose with random rates (u̇ ⊥ u) and a tip particle.
struct RandomChain {
  HangingChain chain{HangingChainConfig{3, 0.5, 0.7, 1.1, 0.4, {0, 0, -9.81}, 0.3}};
  MechanicalState state = chain.system().initialState();
  explicit RandomChain(unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> n(0.0, 1.0);
    for (const auto& b : chain.system().bodies()) {
      for (int k = 0; k < 3; ++k) state.q[b.offset + k] += 0.05 * n(rng), state.v[b.offset + k] = n(rng);
      if (!b.isRod) continue;
      Eigen::Vector3d u(n(rng), n(rng), n(rng)), w(n(rng), n(rng), n(rng));
      u.normalize();
      state.q.segment<3>(b.offset + 3) = u;
      state.v.segment<3>(b.offset + 3) = 3.0 * w.cross(u);
    }
  }
};

}  // namespace varsim::test
