// Traces, context and actions of scene-declared panels; see header.
#include "ui/core/scene_panel_state.h"

#include <cmath>
#include <functional>
#include <limits>

#include "engine/sim/errors.h"

namespace varsim {

void ProfilePeak::update(double t, const std::vector<double>& values) {
  if (t < lastT_ || values.size() != peak_.size()) {
    peak_.assign(values.size(), 0.0);
    peakTime_.assign(values.size(), t);
  }
  lastT_ = t;
  for (size_t k = 0; k < values.size(); ++k)
    if (values[k] > peak_[k]) peak_[k] = values[k], peakTime_[k] = t;
}

PanelTraces::PanelTraces(size_t capacity) : capacity_(capacity) {}

void PanelTraces::clear() {
  series_.clear();
  profiles_.clear();
}

void PanelTraces::sample(double t, const std::vector<PanelSample>& samples) {
  std::map<std::string, PlotHistory> series;
  std::map<std::string, ProfilePeak> profiles;
  for (const PanelSample& s : samples) {
    if (s.profile) {
      auto it = profiles_.find(s.trace);
      ProfilePeak& p = profiles[s.trace] = it != profiles_.end() ? std::move(it->second) : ProfilePeak{};
      p.update(t, s.values);
      continue;
    }
    auto it = series_.find(s.trace);
    PlotHistory& h = series.emplace(s.trace, it != series_.end() ? std::move(it->second) : PlotHistory(capacity_)).first->second;
    if (h.names() != s.series) h.setSeries(s.series);
    if (h.size() > 0 && t <= h.newestTime()) h.truncateAfter(std::nextafter(t, -std::numeric_limits<double>::infinity()));
    h.push(t, s.values);
  }
  series_ = std::move(series);
  profiles_ = std::move(profiles);
}

const PlotHistory* PanelTraces::series(const std::string& trace) const {
  auto it = series_.find(trace);
  return it == series_.end() ? nullptr : &it->second;
}

const ProfilePeak* PanelTraces::profile(const std::string& trace) const {
  auto it = profiles_.find(trace);
  return it == profiles_.end() ? nullptr : &it->second;
}

bool ScenePanelState::follow(const Scene* current, const std::string& name) {
  if (current == scene) return false;
  notice.clear();
  if (current && name == sceneName && editsInForce > 0)
    notice = "reset cleared the scene's " + std::to_string(editsInForce) + " live edit(s) (e.g. per-constraint eps, tau)";
  if (!current || name != sceneName) context = PanelContext{};
  scene = current;
  sceneName = current ? name : "";
  traces.clear();
  errors.clear();
  if (current) afterStep(*current);  // the first sample at the scene's present time
  return true;
}

void ScenePanelState::afterStep(const Scene& s) {
  if (&s != scene) return;
  std::vector<PanelSample> samples;
  s.panelSamples(context, samples);
  traces.sample(s.time(), samples);
  editsInForce = s.edits().size();
}

namespace {

void applyEdits(SimDriver& driver, PanelContext& ctx, const std::vector<PanelEdit>& edits) {
  std::vector<std::function<void()>> undo;
  try {
    for (const PanelEdit& e : edits) {
      if (e.kind == PanelEdit::Kind::Param) {
        const ParamValue before = driver.params().value(e.key);
        driver.setParam(e.key, ParamValue{{e.number}, {}});
        undo.push_back([&driver, key = e.key, before] { driver.setParam(key, before); });
      } else if (e.kind == PanelEdit::Kind::SceneEdit) {
        std::string before;
        for (const auto& [k, v] : driver.scene().edits())
          if (k == e.key) before = v;
        driver.applyEdit(e.key, e.text);
        undo.push_back([&driver, key = e.key, before] { driver.applyEdit(key, before); });
      } else {
        undo.push_back([&ctx, key = e.key, before = ctx.get(e.key)] { ctx.set(key, before); });
        ctx.set(e.key, e.text);
      }
    }
  } catch (...) {
    for (auto it = undo.rbegin(); it != undo.rend(); ++it) try {
        (*it)();
      } catch (const std::exception&) {  // best effort: the first refusal is what the user sees
      }
    throw;
  }
}

}  // namespace

bool ScenePanelState::act(SimDriver& driver, const std::string& action, const std::string& value, const std::string& row) {
  try {
    if (!driver.loaded()) throw BadInput("no scene loaded");
    applyEdits(driver, context, driver.scene().panelAction(context, action, value));
    errors.erase(row);
    editsInForce = driver.scene().edits().size();
    return true;
  } catch (const std::exception& e) {
    errors[row] = e.what();
    return false;
  }
}

}  // namespace varsim
