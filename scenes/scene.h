// A scene joins a model, its integrator, its parameters, controls and plain-data drawing. The same
// registered scenes are listed by the app, the headless runner and the tests (Box2D-style
// self-registration: one VARSIM_REGISTER_SCENE line per scene file).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"
#include "engine/sim/system.h"
#include "render/draw_list.h"
#include "scenes/scene_panel.h"
#include "scenes/state_block.h"

namespace varsim {

class Scene : public System {
 public:
  explicit Scene(ParamSet params) : params_(std::move(params)) {}
  const ParamSet& params() const { return params_; }

  // The step size the scene was configured with (parameter `dt`).
  double dt() const { return params_.real("dt"); }
  virtual void draw(DrawList& out) const = 0;
  virtual std::vector<ControlSpec> controls() const { return {}; }
  virtual std::vector<PlotSpec> plots() const { return {}; }
  // Applies changed parameters. Parameters whose spec is `live` must take effect immediately and
  // keep the state; the caller rebuilds the scene (reset) for the others. Default: store values.
  virtual void applyLive(const ParamSet& params) { params_ = params; }

  // Live edits that are not declared parameters (e.g. a per-constraint eps/tau override), as text
  // key/value pairs, so the UI, recordings (timed events in an input file) and history snapshots
  // handle every scene alike. applyEdit throws BadInput naming the key/value on anything it cannot
  // take (state unchanged); an empty value clears that edit. edits() lists every edit in force, so
  // clearEdits() followed by applyEdit of each restores them exactly.
  virtual void applyEdit(const std::string& key, const std::string& value) {
    throw BadInput("scene has no live edit '" + key + "' (value '" + value + "')");
  }
  virtual std::vector<std::pair<std::string, std::string>> edits() const { return {}; }
  virtual void clearEdits() {}

  // What the scene warns about its parameters as they are now ("" when nothing; never a refusal): the app shows it
  // in the scene's HUD and panels, `varsim run` prints it on stderr at the start and after an edit that changes it.
  virtual std::string parameterWarning() const { return {}; }

  // Cumulative work (J) done on the system since reset by its controls and by external
  // non-conservative sources (motors, thrusters, wind, current, a prescribed gait). The energy
  // monitor flags a run whose energy(t) - energy(0) - inputWork(t) rises above a tolerance; a
  // scene with such sources must report their work (part of its saved state).
  virtual double inputWork() const { return 0.0; }
  // Energy (J) that the integrator's legitimate error is proportional to at the current state (e.g.
  // kinetic energy times (1 + (h|ω|)²) plus weight times size). The monitor measures a gain against
  // the running maximum of this, |E0|, |E| and |W| (engine/sim/energy_monitor.h); 0 leaves only those.
  virtual double energyScale() const { return 0.0; }

  // The state read in place (scenes/state_block.h): blocks whose storage keeps its address for the scene's life and
  // whose values each step, edit and loadState rewrite there. Empty: the family's state is not laid out that way
  // (python/ then offers only copies).
  virtual std::vector<StateBlock> stateBlocks() const { return {}; }

  // ---- Scene-declared panels (scenes/scene_panel.h; drawn by ui/app/scene_panels.cpp) ----
  // The scene's own windows as plain data, built from its state and the UI's context (picked item,
  // chosen options). The UI draws any scene's panels alike and never casts to a scene type.
  virtual std::vector<ScenePanel> panels(const PanelContext&) const { return {}; }
  // Appends the values the panels' plots and profiles trace, once after every step (keep it cheap).
  virtual void panelSamples(const PanelContext&, std::vector<PanelSample>&) const {}
  // A widget's action with its new value (text) → the live edits that realise it, validated: the UI
  // applies them through the driver (so they are recorded) or shows the BadInput naming the refusal.
  virtual std::vector<PanelEdit> panelAction(const PanelContext&, const std::string& action,
                                             const std::string& value) const {
    throw BadInput("scene has no panel action '" + action + "' (value '" + value + "')");
  }
  // What a click along the ray from `origin` (world, m) in `direction` selects within maxAngle rad
  // as seen from the origin; an empty key when nothing.
  virtual PanelPick pick(const PanelContext&, const std::array<double, 3>& origin,
                         const std::array<double, 3>& direction, double maxAngle) const {
    (void)origin, (void)direction, (void)maxAngle;
    return {};
  }

 protected:
  ParamSet params_;
};

struct SceneInfo {
  std::string name;         // command-line name, e.g. "rigid_body"
  std::string title;        // UI name, e.g. "Tumbling rigid body"
  std::string description;  // one paragraph for `describe` and the UI
  std::function<std::vector<ParamSpec>()> params;
  // Cross-parameter checks (e.g. triangle inequality); throws BadInput naming key, value and range.
  std::function<void(const ParamSet&)> validate;
  std::function<std::unique_ptr<Scene>(const ParamSet&)> create;
};

class SceneRegistry {
 public:
  static bool add(SceneInfo info);
  static const std::vector<SceneInfo>& all();  // sorted by name
  static const SceneInfo* find(const std::string& name);
  // Builds with validation; throws BadInput with the scene's allowed names on an unknown scene.
  static std::unique_ptr<Scene> create(const std::string& name, const ParamSet& params);
  static ParamSet defaults(const std::string& name);
};

#define VARSIM_CONCAT_INNER(a, b) a##b
#define VARSIM_CONCAT(a, b) VARSIM_CONCAT_INNER(a, b)
#define VARSIM_REGISTER_SCENE(...) \
  static const bool VARSIM_CONCAT(varsimSceneRegistered_, __LINE__) = ::varsim::SceneRegistry::add(__VA_ARGS__)

}  // namespace varsim
