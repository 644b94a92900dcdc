// RodScene: the Scene every rod scene (ladder, chain, sleigh) derives from. It steps a rod system
// with SPOOK or a baseline (rod_simulation.h) plus optional ghosts, declares the shared parameters
// (rod_scene_params.h), draws through rod_drawing.h and gives the UI its live-tuning accessors
// (constraint list with violations and forces, per-constraint ε/τ, conventions, stability warning, ghosts).
#pragma once
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/integrators/spook_conventions.h"
#include "render/draw_list.h"
#include "scenes/rods/rod_drawing.h"
#include "scenes/rods/rod_scene_params.h"
#include "scenes/rods/rod_simulation.h"
#include "scenes/scene.h"

namespace varsim {

class RodScene : public Scene {
 public:
  RodScene(const ParamSet& params, std::vector<std::string> groups);

  void step(double h, const InputVector& inputs) override;
  double time() const override { return main_->state.t; }
  std::vector<std::string> columns() const override;
  void diagnostics(std::vector<double>& row) const override;
  std::vector<double> saveState() const override;
  void saveStateInto(std::vector<double>& out) const override;
  void loadState(const std::vector<double>& state) override;
  void draw(DrawList& out) const override;
  std::vector<PlotSpec> plots() const override;
  void applyLive(const ParamSet& params) override;
  // Live edits: key `relax.<constraint index>`, value `<ε>,<τ>` (the ranges of `epsilon` and `tau`)
  // overrides that constraint's relaxation; an empty value clears it.
  void applyEdit(const std::string& key, const std::string& value) override;
  std::vector<std::pair<std::string, std::string>> edits() const override;
  void clearEdits() override;
  // Kinetic energy plus Σ m|g| L: SPOOK's stored and released constraint energy and its damping
  // scale with these (energy_monitor.h). The monitored energy is kinetic + gravity only; ε/τ edits
  // change the constraint's stored energy, not E, so they do no work in the monitor's balance: an
  // edit that makes a stretched joint spring back shows as a gain if it exceeds the tolerance.
  double energyScale() const override;
  // The main simulation's q, v in place (RodSimulation::stateBlocks).
  std::vector<StateBlock> stateBlocks() const override { return main_->stateBlocks(); }

  struct ConstraintStatus {
    std::string name;
    int group = 0;         // index into system().groupNames()
    double violation = 0;  // gap (m) for joints/pins/plane, |u·u − 1|/2 for unit rows, |A v − w| for blades
    double force = 0;      // N: |λ|/h of the last SPOOK step (0 for the baselines)
    ConstraintRelaxation relaxation;
    bool overridden = false;
  };
  int constraintCount() const { return int(system_->constraints().size()); }
  // The joints' and pins' constraint indices (RodSystem::jointConstraintIndices), listed once: the panel, picking and
  // drawing read them every frame (20 001 at N = 5000).
  const std::vector<int>& joints() const { return joints_; }
  // Their names in the same order, listed once per scene build: the SPOOK panel's pick list shares it every frame
  // (copying 20 001 names cost ~1.3 ms per frame at N = 10 000).
  const std::shared_ptr<const std::vector<std::string>>& jointNames() const { return jointNames_; }
  // The main simulation's rodDiagnostics, computed once per state: the run loop's row, the energy monitor's
  // energyScale, the drawn HUD and the panel's header all read it (one O(N) pass per step instead of four). Every
  // change of the main state or of gravity bumps stateVersion_.
  const RodDiagnostics& mainDiagnostics() const;
  ConstraintStatus constraintStatus(int i) const;
  std::vector<ConstraintStatus> constraintList() const;
  // Per picked constraint ε, τ (s); overrides the global and group values until cleared.
  void setConstraintRelaxation(int i, double epsilon, double tau);
  void clearConstraintRelaxation(int i);
  // The joint or pin whose anchor is closest to `point` within maxDistance (m), or −1.
  int nearestJoint(const Eigen::Vector3d& point, double maxDistance) const;
  Eigen::Vector3d jointPosition(int i) const;
  // (ε, τ, h) in the other conventions, and the measured-stability warning ("" when inside).
  std::vector<std::string> conventionLines() const;
  std::string stabilityWarning() const;  // the SPOOK tuning panel's lines (stabilityWarningLines), joined by "; "
  // The stability warning and subStepWarning, joined by "; ".
  std::string parameterWarning() const override;
  // Rigid rods with neither sub-step rule (max_chord = max_turn = 0): measured to diverge in the whip ("" otherwise).
  std::string subStepWarning() const;
  // The warning for one target's (ε, τ) ("" when none): spookStabilityWarning's measured region; for the
  // "joints" group ε = 0 on a system with closed loops (a loop folded flat makes its rows dependent: the step
  // then stops with a singular system); for "joints" and "pins" a compliance that lets the pins, which hold the
  // whole weight W, stand open by ε W > 1 % of the shortest rod at rest. `group` is "" for one constraint's override.
  std::string relaxationWarning(const std::string& group, const SpookParameters& p) const;
  const SpookProfile* profile() const;
  // Which rod SPOOK steps ("rigid rods …, n sub-steps in the last step" or "director rods …"); "" for
  // the baselines. The panel shows it with the reason for the choice.
  std::string rodModelSummary() const;
  struct GhostStatus {
    std::string stepper;
    bool diverged = false;
    double divergedAt = 0;
    std::string message;
    double energy = 0, constraintRms = 0;
    // First time its energy rose above initialEnergy() by more than 1e-3 · max(|E(0)|, 1 J), latched
    // (part of the saved state, so stepping back before it forgets it); < 0: never. Neither baseline
    // may gain energy, and in the measured runs instability showed first as energy growth.
    double energyGrowthAt = -1;
  };
  std::vector<GhostStatus> ghosts() const;
  double initialEnergy() const { return initialEnergy_; }  // J, at t = 0 (E(0) of the ghosts' indicator)
  // N: the system's weight Σ m |g|, which scales the joints' and pins' ε (effectiveRelaxation); set with gravity.
  double weight() const { return weight_; }
  // (ε, τ) of group g's rows under effectiveRelaxation at this system's weight.
  SpookParameters groupRelaxation(const std::string& group) const { return effectiveRelaxation(params_, group, nullptr, weight()); }
  // (ε, τ) of constraint i under effectiveRelaxation (its override or its group's value).
  SpookParameters constraintRelaxation(int i) const;
  std::vector<int> overriddenConstraints() const;
  // Speed along the chain: the largest end speed of each body in order (the ladder: of each link).
  struct SpeedProfile {
    std::vector<double> speeds;  // m/s
    const char* axis = "body";
  };
  virtual SpeedProfile speedProfile() const;

  // The SPOOK tuning panel (scenes/rods/rod_panel.h).
  std::vector<ScenePanel> panels(const PanelContext& ctx) const override;
  void panelSamples(const PanelContext& ctx, std::vector<PanelSample>& out) const override;
  std::vector<PanelEdit> panelAction(const PanelContext& ctx, const std::string& action,
                                     const std::string& value) const override;
  PanelPick pick(const PanelContext& ctx, const std::array<double, 3>& origin, const std::array<double, 3>& direction,
                 double maxAngle) const override;
  const RodSystem& system() const { return *system_; }
  const MechanicalState& state() const { return main_->state; }
  int lastSolves() const { return main_->lastSolves(); }  // SPOOK solves of the last step (rigid: sub-steps, re-solves)

 protected:
  // Derived constructors build their model, then call this: `trail` is the point the trail follows,
  // `tipBody` the body whose speed is reported as tip_speed, `massForConventions` the mass the
  // MuJoCo/Box2D views assume.
  void initSimulation(RodSystem& system, BodyPoint trail, int tipBody, double massForConventions);
  virtual void extraColumns(std::vector<std::string>&) const {}
  virtual void extraDiagnostics(std::vector<double>&) const {}
  // Runs first in draw(): the camera hint (its distance sizes the drawn rods), the scene's own shapes
  // and HUD lines (at most one: the rod lines follow).
  virtual void drawExtras(DrawList&) const {}
  double lastH() const { return lastH_ > 0 ? lastH_ : dt(); }

  RodSystem* system_ = nullptr;
  std::unique_ptr<RodSimulation> main_;
  std::vector<std::unique_ptr<RodSimulation>> ghosts_;

 private:
  void applyParams();
  double maxEpsilon() const;
  long stateVersion_ = 0;
  mutable long diagnosedVersion_ = -1;
  mutable RodDiagnostics diagnosed_;
  double weightTimesSize_ = 0;  // J: Σ m|g| l over the bodies (energyScale), set with gravity
  double weight_ = 0;           // N: rodWeight, set with gravity (read by the panel and HUD every frame)
  std::vector<int> joints_;     // joints(), listed once
  std::shared_ptr<const std::vector<std::string>> jointNames_;  // jointNames()
  double longestRod_ = 0;       // m, 0: no rods (draw: the rod radius)
  std::vector<std::string> groups_;
  std::map<int, ConstraintRelaxation> overrides_;
  std::deque<Eigen::Vector3d> trail_;
  BodyPoint trailPoint_;
  int tipBody_ = 0;
  double conventionMass_ = 1.0;
  double lastH_ = 0;
  double initialEnergy_ = 0;
  double totalMass_ = 0, shortestRod_ = 0;  // kg over all bodies; m over the rods (0: none) — the stretch warning
};

// Camera hint for a rod scene swinging about a pin at the origin in the vertical plane through the
// horizontal direction `azimuth` (rad about z from +x): face-on with that direction to the right,
// slightly from above, and far enough that a full swing of `radius` (horizontal [-r, r], z [-r, 0])
// fits the camera's 45-degree vertical field of view in a view up to ~10% wider than high (the
// default layout's 3-D view above the SPOOK tuning panel) with a 5% margin.
inline void frameSwingFaceOn(CameraHint& hint, double radius, double azimuth) {
  const double halfFov = 0.3927, aspect = 1.1, margin = 1.05;
  hint.target = {0.0f, 0.0f, float(-0.5 * radius)};
  hint.distance = float(margin * radius / (std::tan(halfFov) * aspect));
  hint.setsAngles = true;
  hint.yaw = float(azimuth - 1.5707963267948966);
  hint.pitch = 0.12f;
  hint.showGround = false;
  // Released from rest it swings through the half-disc of this radius below the pin (at most up to the
  // pin's height on the far side): the default framing covers it, not only the first frame.
  const float c = float(radius * std::cos(azimuth)), s = float(radius * std::sin(azimuth));
  hint.hasReach = true;
  hint.reachLo = {std::min(c, -c), std::min(s, -s), float(-radius)};
  hint.reachHi = {std::max(c, -c), std::max(s, -s), 0.0f};
}

}  // namespace varsim
