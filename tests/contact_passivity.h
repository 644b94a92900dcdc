// tests/contact_passivity.h — one helicopter run measured the way issue 15 item 10 asks: the energy against its
// start plus the work of the inputs (Scene::inputWork), the deepest penetration of the contact points, the final
// penetration and speed, and whether it diverged. Shared by tests/test_helicopter.cpp and
// tests/bench/bench_contact_passivity.cpp (header-only, test use).
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "engine/sim/errors.h"
#include "scenes/scene.h"

namespace varsim::test {

struct PassivityRun {
  double e0 = 0.0;              // J, energy at t = 0
  double maxExcess = 0.0;       // J, max_k E_k - E_0 - W_k (W: inputWork); > 0 means energy from nowhere
  double maxRatio = 1.0;        // max_k (E_k - W_k) / E_0
  double maxPenetration = 0.0;  // m, max over time of -min(clearance, 0)
  double finalPenetration = 0.0;
  double finalSpeed = 0.0;    // m/s
  double seconds = 0.0;       // simulated time reached
  std::string status = "ok";  // "ok" or "diverged" (SimulationDiverged thrown)
};

// Runs scene `name` with `sets` for `duration` s of simulated time at its dt (neutral sticks unless `inputs`).
inline PassivityRun runPassivity(const std::string& name, const std::vector<std::pair<std::string, std::string>>& sets,
                                 double duration, const std::function<InputVector(long)>& inputs = {}) {
  ParamSet params = SceneRegistry::defaults(name);  // (not scene_harness.h: benches have no VARSIM_BINARY)
  for (const auto& [key, value] : sets) params.setFromString(key, value, "passivity run");
  auto scene = SceneRegistry::create(name, params);
  const std::vector<std::string> columns = scene->columns();
  const auto column = [&](const char* c) {
    return int(std::find(columns.begin(), columns.end(), c) - columns.begin()) < int(columns.size())
               ? int(std::find(columns.begin(), columns.end(), c) - columns.begin())
               : -1;
  };
  const int energy = column("energy"), clearance = column("clearance"), speed = column("speed");
  const InputVector neutral(scene->controls().size(), 0.0);
  std::vector<double> row;
  scene->diagnostics(row);
  PassivityRun r;
  r.e0 = row[size_t(energy)];
  const auto measure = [&] {
    const double e = row[size_t(energy)] - scene->inputWork();
    r.maxExcess = std::max(r.maxExcess, e - r.e0);
    r.maxRatio = std::max(r.maxRatio, e / r.e0);
    r.finalPenetration = clearance >= 0 ? std::max(0.0, -row[size_t(clearance)]) : 0.0;
    r.maxPenetration = std::max(r.maxPenetration, r.finalPenetration);
    r.finalSpeed = speed >= 0 ? row[size_t(speed)] : 0.0;
  };
  measure();
  const long steps = std::lround(duration / scene->dt());
  try {
    for (long k = 0; k < steps; ++k) {
      scene->step(scene->dt(), inputs ? inputs(k) : neutral);
      scene->diagnostics(row);
      measure();
    }
  } catch (const SimulationDiverged&) {
    r.status = "diverged";
  }
  r.seconds = scene->time();
  return r;
}

}  // namespace varsim::test
