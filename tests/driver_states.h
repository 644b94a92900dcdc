// State bits of SimDriver runs, for the app tests that compare trajectories to the last bit.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "ui/core/sim_driver.h"

namespace varsim {

// Bit pattern of a state vector, so "identical" means identical to the last bit.
inline std::vector<uint64_t> bits(const std::vector<double>& v) {
  std::vector<uint64_t> out(v.size());
  std::memcpy(out.data(), v.data(), v.size() * sizeof(double));
  return out;
}

// State bits after each of `steps` steps; run(d, f) runs frame f (d.frame(...), or through the worker).
template <class RunFrame>
std::vector<std::vector<uint64_t>> runTrajectory(SimDriver& d, long steps, RunFrame run) {
  std::vector<std::vector<uint64_t>> states;
  d.afterStep = [&](long k, const Scene& s) {
    if (k <= steps) states.push_back(bits(s.saveState()));
  };
  for (int f = 0; d.step() < steps && f < 1000000; ++f) run(d, f);
  d.afterStep = nullptr;
  states.resize(size_t(steps));
  return states;
}

}  // namespace varsim
