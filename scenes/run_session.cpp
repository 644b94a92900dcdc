// The run loop shared by `varsim run` and the Python module; see run_session.h.
#include "scenes/run_session.h"

#include <cmath>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"

namespace varsim {

RunSession::RunSession(const SceneConfig& config, Warn warn)
    : name_(config.scene),
      scene_(SceneRegistry::create(config.scene, config.params)),
      edited_(config.params),
      warn_(std::move(warn)),
      h_(scene_->dt()),
      sceneColumns_(scene_->columns()) {
  // Energy monitor (energy_monitor.h): two columns after the scene's, energy_gain = E - E0 - W_in (J) and
  // energy_flag (0, then 1 from the first flagged step on).
  energyCol_ = EnergyMonitor::energyColumn(sceneColumns_);
  csvColumns_ = sceneColumns_;
  if (energyCol_ >= 0) csvColumns_.insert(csvColumns_.end(), {"energy_gain", "energy_flag"});
  warnParams();
  checkRow();
  monitorRow();
}

void RunSession::checkRow() {
  scene_->diagnostics(row_);
  for (size_t c = 0; c < row_.size(); ++c)
    if (!std::isfinite(row_[c]))
      throw SimulationDiverged("step " + std::to_string(steps_) + " (t=" + formatNumber(scene_->time()) + "): '" +
                               sceneColumns_[c] + "' is not finite");
}

void RunSession::monitorRow() {
  if (energyCol_ < 0) return;
  const double e = row_[size_t(energyCol_)];
  if (steps_ == 0) monitor_.start(e, scene_->inputWork(), scene_->energyScale());
  else if (monitor_.update(steps_, scene_->time(), e, scene_->inputWork(), scene_->energyScale()) && warn_)
    warn_(monitor_.message());
  row_.insert(row_.end(), {monitor_.gain(), monitor_.flagged() ? 1.0 : 0.0});
}

// The scene's parameter warning (Scene::parameterWarning), passed on when it appears or changes.
void RunSession::warnParams() {
  const std::string w = scene_->parameterWarning();
  if (w != warned_ && !w.empty() && warn_)
    warn_(name_ + " (step " + std::to_string(steps_) + ", t=" + formatNumber(scene_->time()) + "): " + w);
  warned_ = w;
}

EditTiming RunSession::applyEvent(const InputEvent& event) {
  return applyInputEvent(*scene_, name_, edited_, event);
}

void RunSession::endEdits() {
  warnParams();
  if (energyCol_ < 0) return;  // an edit's energy jump at fixed state is work (e.g. gravity)
  const double before = row_[size_t(energyCol_)];
  scene_->diagnostics(row_);
  monitor_.addEditWork(row_[size_t(energyCol_)] - before);
  row_.insert(row_.end(), {monitor_.gain(), monitor_.flagged() ? 1.0 : 0.0});
}

void RunSession::step(const InputVector& inputs) {
  try {
    scene_->step(h_, inputs);
  } catch (const SimulationDiverged& e) {
    throw SimulationDiverged("step " + std::to_string(steps_ + 1) + ": " + e.what());
  }
  ++steps_;
  checkRow();
  monitorRow();
}

// Layout: [step count, row size, row..., monitor size, monitor..., scene state...].
std::vector<double> RunSession::saveState() const {
  std::vector<double> out{double(steps_), double(row_.size())};
  out.insert(out.end(), row_.begin(), row_.end());
  const std::vector<double> m = monitor_.saveState();
  out.push_back(double(m.size()));
  out.insert(out.end(), m.begin(), m.end());
  const std::vector<double> s = scene_->saveState();
  out.insert(out.end(), s.begin(), s.end());
  return out;
}

void RunSession::loadState(const std::vector<double>& state) {
  const auto refuse = [&] {
    throw BadInput("snapshot of " + std::to_string(state.size()) + " numbers does not fit scene '" + name_ +
                   "' with these parameters");
  };
  if (state.size() < 3 || state[1] != double(row_.size())) refuse();
  const size_t rowEnd = 2 + row_.size();
  if (state.size() <= rowEnd) refuse();
  const double mSize = state[rowEnd];
  if (!(mSize >= 0) || double(state.size()) < double(rowEnd) + 1 + mSize) refuse();
  const size_t mEnd = rowEnd + 1 + size_t(mSize);
  EnergyMonitor monitor;
  monitor.loadState({state.begin() + long(rowEnd) + 1, state.begin() + long(mEnd)});
  std::vector<double> sceneState(state.begin() + long(mEnd), state.end());
  if (sceneState.size() != scene_->saveState().size()) refuse();
  scene_->loadState(sceneState);
  monitor_ = monitor;
  steps_ = long(state[0]);
  row_.assign(state.begin() + 2, state.begin() + long(rowEnd));
  warned_ = scene_->parameterWarning();
}

}  // namespace varsim
