// The Python Scene: a RunSession (scenes/run_session.h, the loop `varsim run` uses) plus the current control
// values, with Python-facing conversions. Steps run with the GIL released; one Scene must not be stepped from two
// threads at once (pybind11 holds no lock on it), distinct Scenes run in parallel.
#pragma once
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/sim/input_track.h"
#include "python/py_state.h"
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
  // Plays an input track (the `varsim run --input` format) from step 0 of this scene: at each step k its events
  // apply before the physics and its row at k sets the controls, as the command replays it. Reset events refused.
  void play(InputTrack track);
  void playText(const pybind11::object& text, const std::string& source);  // None stops playing
  bool playing() const { return bool(track_); }
  pybind11::dict run(pybind11::object steps, pybind11::object duration, long every);
  pybind11::dict row();

  void set(const pybind11::dict& values);
  void edit(const std::string& key, const std::string& value);
  pybind11::list controls() const;
  void setControls(const pybind11::dict& values);
  pybind11::dict controlValues() const;

  pybind11::bytes save() const;
  void load(const pybind11::bytes& blob);
  // See py_state.h; owner: the Python object holding this PyScene (base of the in-place views).
  pybind11::dict state(const pybind11::handle& owner);

  std::string warning() const { return run_->scene().parameterWarning(); }
  const std::vector<std::string>& warnings() const { return warnings_; }
  double energyScale() const { return run_->scene().energyScale(); }
  double inputWork() const { return run_->scene().inputWork(); }

 private:
  void flushEdits();
  void record(const std::vector<double*>& out, size_t at) const;  // the row's kept columns into row `at`
  // `steps` steps, recording every `every`-th row into out (per column, if given) from row 1 on; the caller releases
  // the GIL.
  void stepLoop(long steps, long every, const std::vector<double*>* out);
  void playStep();  // the track's events and controls for the next step


  SceneConfig config_;
  std::unique_ptr<RunSession> run_;
  std::vector<std::string> warnings_;  // warning lines the CLI prints on stderr, in order
  InputVector inputs_;
  std::vector<size_t> kept_;  // CSV columns kept (wall-clock columns dropped, as `varsim run` without --timings)
  std::vector<std::string> columns_;
  bool pendingEdits_ = false;
  std::unique_ptr<InputTrack> track_;  // playing, or null
  std::unique_ptr<StateViews> views_;
  // Measured seconds per step (NaN before the first): step(n) keeps the GIL when n of them take less than a
  // thread switch would cost, so a tiny step called in a Python loop does not pay two GIL hand-overs.
  double stepSeconds_;
};

// Text of a Python value as `--set key=value` would take it: bools as true/false, numbers at round-trip precision,
// sequences as comma-separated numbers.
std::string paramText(const pybind11::handle& value);

void bindScene(pybind11::module_& m);

}  // namespace varsim::python
