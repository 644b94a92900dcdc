// The Python Scene class; see py_scene.h. Rows come from RunSession::row(), the same vector `varsim run` writes.
#include "python/py_scene.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cmath>
#include <limits>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "engine/sim/recorder.h"
#include "python/py_snapshot.h"

namespace py = pybind11;

namespace varsim::python {

namespace {

py::object paramValue(const ParamSpec& spec, const ParamValue& v) {
  switch (spec.type) {
    case ParamType::Real: return py::float_(v.numbers.at(0));
    case ParamType::Integer: return py::int_(long(v.numbers.at(0)));
    case ParamType::Bool: return py::bool_(v.numbers.at(0) != 0.0);
    case ParamType::Vector: return py::cast(v.numbers);
    case ParamType::Choice:
    case ParamType::Path: break;
  }
  return py::str(v.choice);
}
}  // namespace

std::string paramText(const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::int_>(value)) return py::str(value).cast<std::string>();
  if (py::isinstance<py::float_>(value)) return py::repr(value).cast<std::string>();
  if (py::isinstance<py::sequence>(value)) {
    std::string out;
    for (const py::handle item : value.cast<py::sequence>()) out += (out.empty() ? "" : ",") + paramText(item);
    return out;
  }
  return py::str(value).cast<std::string>();
}

PyScene::PyScene(SceneConfig config, const py::dict& overrides, const std::string& source)
    : config_(std::move(config)), stepSeconds_(std::numeric_limits<double>::quiet_NaN()) {
  for (const auto& [key, value] : overrides)
    config_.params.setFromString(key.cast<std::string>(), paramText(value), source);
  run_ = std::make_unique<RunSession>(config_, [this](const std::string& w) { warnings_.push_back(w); });
  inputs_ = neutralInputs(run_->scene().controls());
  const std::vector<std::string>& all = run_->columns();
  for (size_t c = 0; c < all.size(); ++c)
    if (!isWallClockColumn(all[c])) kept_.push_back(c), columns_.push_back(all[c]);
  views_ = std::make_unique<StateViews>(all);
}

py::dict PyScene::params() const {
  py::dict out;
  const ParamSet& p = run_->edited();
  for (const ParamSpec& spec : p.specs()) out[py::str(spec.key)] = paramValue(spec, p.value(spec.key));
  return out;
}

void PyScene::flushEdits() {
  if (pendingEdits_) run_->endEdits();
  pendingEdits_ = false;
}

void PyScene::record(const std::vector<double*>& out, size_t at) const {
  const double* r = run_->row().data();
  for (size_t c = 0; c < kept_.size(); ++c) out[c][at] = r[kept_[c]];
}

void PyScene::playStep() {
  const long k = run_->stepCount();
  const auto [first, last] = track_->eventsAt(k);
  for (size_t i = first; i < last; ++i) {
    const InputEvent& e = track_->events()[i];
    if (run_->applyEvent(e) == EditTiming::OnReset)
      warnings_.push_back(e.where + ": '" + e.key + "' takes effect on a reset only; this run keeps " +
                          run_->scene().params().valueText(e.key));
  }
  if (first < last) run_->endEdits();
  inputs_ = track_->at(k);
}

void PyScene::stepLoop(long steps, long every, const std::vector<double*>* out) {
  flushEdits();
  size_t at = 1;  // row 0 is the state the loop starts from
  for (long k = 0; k < steps; ++k) {
    if (track_) playStep();
    run_->step(inputs_);
    if (out && (k + 1) % every == 0) record(*out, at++);
  }
}

void PyScene::step(long n) {
  if (n < 0) throw BadInput("step: n " + std::to_string(n) + ": negative; allowed a whole number >= 0");
  // Releasing and retaking the GIL lets other Python threads run but costs two hand-overs: worth it from ~20 us of
  // stepping on (and on every first call, where the cost is not known yet).
  constexpr double kReleaseAbove = 20e-6;
  const bool release = !(double(n) * stepSeconds_ < kReleaseAbove);
  const auto t0 = std::chrono::steady_clock::now();
  if (release) {
    py::gil_scoped_release unlocked;
    stepLoop(n, 1, nullptr);
  } else {
    stepLoop(n, 1, nullptr);
  }
  if (n > 0) stepSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / double(n);
}

void PyScene::play(InputTrack track) {
  for (const InputEvent& e : track.events())
    if (e.kind == InputEvent::Kind::Reset)
      throw BadInput(e.where + ": reset events are replayed by the app only (a Scene runs one run from t = 0; "
                     "split the file at the reset)");
  if (track.neutral.size() != inputs_.size()) track.neutral = neutralInputs(run_->scene().controls());
  track_ = std::make_unique<InputTrack>(std::move(track));
}

void PyScene::playText(const py::object& text, const std::string& source) {
  if (text.is_none()) {
    track_.reset();
    return;
  }
  if (!py::isinstance<py::str>(text))
    throw py::type_error("play: inputs must be an input file's text (str) or None, not " +
                         std::string(py::str(py::type::handle_of(text).attr("__name__"))));
  play(InputTrack::parse(text.cast<std::string>(), source, run_->scene().controls(), run_->h()));
}

py::dict PyScene::run(py::object steps, py::object duration, long every) {
  if (!steps.is_none() && !duration.is_none()) throw BadInput("run: steps and duration are exclusive; give one");
  if (every < 1) throw BadInput("run: every " + std::to_string(every) + ": allowed a whole number >= 1");
  const double n = steps.is_none() ? (duration.is_none() ? 10.0 : duration.cast<double>()) / run_->h()
                                   : steps.cast<double>();
  if (!(n >= 0 && n <= 1e8))
    throw BadInput("run: " + formatNumber(n) + " steps; allowed a whole number in [0, 1e+08]");
  const long count = long(std::llround(n));
  // One uninitialised numpy block (columns x rows, C order), each column a contiguous 1-D view of it, filled in place
  // while the GIL is released: no zeroing, no copy, and one allocation large enough for numpy's huge-page advice —
  // the rigid body's 1e5 rows fault in ~360 pages instead of ~5450 as 28 separate arrays (~10 ms of the run). The
  // views keep the block alive together.
  const auto rows = py::ssize_t(count / every + 1);
  py::array_t<double> block({py::ssize_t(kept_.size()), rows});
  py::dict out;
  std::vector<double*> data;
  for (size_t c = 0; c < kept_.size(); ++c) {
    data.push_back(block.mutable_data() + py::ssize_t(c) * rows);
    out[py::str(columns_[c])] = py::array_t<double>(rows, data.back(), block);
  }
  py::gil_scoped_release release;
  flushEdits();
  record(data, 0);
  stepLoop(count, every, &data);
  return out;
}

py::dict PyScene::row() {
  flushEdits();
  py::dict out;
  for (size_t c = 0; c < kept_.size(); ++c) out[py::str(columns_[c])] = run_->row()[kept_[c]];
  return out;
}

void PyScene::set(const py::dict& values) {
  for (const auto& [key, value] : values) {
    InputEvent e{run_->stepCount(), InputEvent::Kind::Param, key.cast<std::string>(), paramText(value), ""};
    if (run_->applyEvent(e) == EditTiming::OnReset)
      warnings_.push_back("'" + e.key + "' takes effect on a reset only; this scene keeps " +
                          run_->scene().params().valueText(e.key));
    pendingEdits_ = true;
  }
}

void PyScene::edit(const std::string& key, const std::string& value) {
  run_->applyEvent({run_->stepCount(), InputEvent::Kind::Edit, key, value, ""});
  pendingEdits_ = true;
}

py::list PyScene::controls() const {
  py::list out;
  for (const ControlSpec& c : run_->scene().controls())
    out.append(py::dict(py::arg("name") = c.name, py::arg("min") = c.min, py::arg("max") = c.max,
                        py::arg("neutral") = c.neutral, py::arg("help") = c.help));
  return out;
}

py::dict PyScene::controlValues() const {
  py::dict out;
  const auto specs = run_->scene().controls();
  for (size_t i = 0; i < specs.size(); ++i) out[py::str(specs[i].name)] = inputs_[i];
  return out;
}

void PyScene::setControls(const py::dict& values) {
  if (track_) throw BadInput("set_controls: an input track is playing and sets the controls; stop it with play(None)");
  const auto specs = run_->scene().controls();
  InputVector next = inputs_;
  for (const auto& [key, value] : values) {
    const std::string name = key.cast<std::string>();
    size_t i = 0;
    while (i < specs.size() && specs[i].name != name) ++i;
    if (i == specs.size()) {
      std::string allowed;
      for (const ControlSpec& c : specs) allowed += (allowed.empty() ? "" : ", ") + c.name;
      throw BadInput("set_controls: unknown control '" + shortText(name) + "' for scene '" + config_.scene +
                     "'; allowed: " + (allowed.empty() ? "none" : allowed));
    }
    next[i] = value.cast<double>();
  }
  sanitizeInputs(specs, next);  // clamped to each range, non-finite -> neutral, as for the gamepad
  inputs_ = next;
}

py::bytes PyScene::save() const { return py::bytes(saveSnapshot(*run_, inputs_)); }

py::dict PyScene::state(const py::handle& owner) {
  py::dict out = views_->views(*run_);
  StateViews::addBlocks(run_->scene(), owner, out);
  return out;
}

void PyScene::load(const py::bytes& bytes) {
  inputs_ = loadSnapshot(*run_, bytes, inputs_.size());
  pendingEdits_ = false;
}


}  // namespace varsim::python
