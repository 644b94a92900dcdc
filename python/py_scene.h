// The Python Scene: a RunSession (scenes/run_session.h, the loop `varsim run` uses) plus the current control
// values, with Python-facing conversions. Steps run with the GIL released; one Scene must not be stepped from two
// threads at once (pybind11 holds no lock on it), distinct Scenes run in parallel.
#pragma once
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "scenes/run_session.h"

namespace varsim::python {

class PyScene {
 public:
  PyScene(SceneConfig config, const pybind11::dict& overrides, const std::string& source);

  const std::string& name() const { return config_.scene; }
  pybind11::dict params() const;
  double dt() const { return run_->h(); }
  double time() const { return run_->scene().time(); }
  long stepCount() const { return run_->stepCount(); }
  const std::vector<std::string>& columns() const { return columns_; }

  void step(long n);
  pybind11::dict run(pybind11::object steps, pybind11::object duration, long every);
  pybind11::dict row();

  void set(const pybind11::dict& values);
  void edit(const std::string& key, const std::string& value);
  pybind11::list controls() const;
  void setControls(const pybind11::dict& values);
  pybind11::dict controlValues() const;

  pybind11::bytes save() const;
  void load(const pybind11::bytes& blob);
  pybind11::object state() const;

  std::string warning() const { return run_->scene().parameterWarning(); }
  const std::vector<std::string>& warnings() const { return warnings_; }
  double energyScale() const { return run_->scene().energyScale(); }
  double inputWork() const { return run_->scene().inputWork(); }

 private:
  void flushEdits();
  void record(std::vector<std::vector<double>>& out, size_t at) const;  // the row's kept columns into row `at`
  // `steps` steps, recording every `every`-th row into out (if given, sized for them) from row 1 on; the caller releases the GIL.
  void stepLoop(long steps, long every, std::vector<std::vector<double>>* out);

  SceneConfig config_;
  std::unique_ptr<RunSession> run_;
  std::vector<std::string> warnings_;  // warning lines the CLI prints on stderr, in order
  InputVector inputs_;
  std::vector<size_t> kept_;  // CSV columns kept (wall-clock columns dropped, as `varsim run` without --timings)
  std::vector<std::string> columns_;
  bool pendingEdits_ = false;
};

// Text of a Python value as `--set key=value` would take it: bools as true/false, numbers at round-trip precision,
// sequences as comma-separated numbers.
std::string paramText(const pybind11::handle& value);

void bindScene(pybind11::module_& m);

}  // namespace varsim::python
