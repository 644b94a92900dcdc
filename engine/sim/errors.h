// Error types shared by the engine, scenes and runners.
// BadInput maps to exit code 2 in headless mode (the message names file/key/value and allowed range);
// SimulationDiverged maps to exit code 3 (the message names the step and the quantity).
#pragma once
#include <stdexcept>
#include <string>

namespace varsim {

struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct SimulationDiverged : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace varsim
