// The System interface every simulated model exposes to runners, the app and tests: a fixed step
// with inputs, named diagnostics, and an exact save/restore of the full state (for the history ring,
// replay and determinism checks). Same state + same inputs + same h => bit-identical next state.
#pragma once
#include <string>
#include <vector>

namespace varsim {

// One control channel, as the input layer (gamepad, keyboard, replay file) delivers it: a shaped,
// clamped value in [min, max] (usually [-1,1] for sticks, [0,1] for triggers). The scene maps it to
// physical units; `neutral` is what a disconnected or misbehaving device falls back to.
struct ControlSpec {
  std::string name;  // column name in input files, e.g. "collective"
  double min = -1.0;
  double max = 1.0;
  double neutral = 0.0;
  std::string help;  // what it does, in the scene's units
};

using InputVector = std::vector<double>;  // one entry per ControlSpec, in order

// Which diagnostics columns the app plots together.
struct PlotSpec {
  std::string title;
  std::vector<std::string> columns;
  bool logY = false;
  // Size of what the series are measured against (|E0| for E - E0; 1 for relative errors, |q| - 1 and
  // values in SI units): an autoscaled axis never resolves less than round-off of it.
  double scale = 1.0;
};

class System {
 public:
  virtual ~System() = default;
  // Advance by h. Throws SimulationDiverged (naming step and quantity) instead of producing NaN;
  // the state is then left as it was before the step.
  virtual void step(double h, const InputVector& inputs) = 0;
  virtual double time() const = 0;
  // Diagnostics of the current state; columns() is fixed for the lifetime of the system.
  virtual std::vector<std::string> columns() const = 0;
  virtual void diagnostics(std::vector<double>& row) const = 0;
  // Full state (including anything that influences the next step, e.g. the last segment velocity).
  virtual std::vector<double> saveState() const = 0;
  virtual void loadState(const std::vector<double>& state) = 0;
  // saveState() into `out`, whose heap may be re-used (the history ring recycles its oldest entry's
  // buffer: a 5000-link ladder's 1.9 MB state then costs no allocation per step). Same numbers.
  virtual void saveStateInto(std::vector<double>& out) const { out = saveState(); }
};

}  // namespace varsim
