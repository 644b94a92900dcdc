// Scene `ladder`: the paper's square ladder chain (seed 001 Sec. 6) falling from horizontal, stepped
// by SPOOK (or a baseline), optionally with the two other steppers as translucent ghost ladders.
// Besides the Scene interface it offers the UI what the live-tuning panel needs: the
// whiplash profile, the constraint list with violations and forces, per-constraint ε/τ, the
// (ε, τ, h) conventions and the measured-stability warning.
#pragma once
#include <Eigen/Core>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/integrators/spook_conventions.h"
#include "engine/models/ladder.h"
#include "scenes/rod_scene.h"
#include "scenes/scene.h"

namespace varsim {

class LadderScene : public Scene {
 public:
  explicit LadderScene(const ParamSet& params);

  void step(double h, const InputVector& inputs) override;
  double time() const override { return main_->state.t; }
  std::vector<std::string> columns() const override;
  void diagnostics(std::vector<double>& row) const override;
  std::vector<double> saveState() const override;
  void loadState(const std::vector<double>& state) override;
  void draw(DrawList& out) const override;
  std::vector<PlotSpec> plots() const override;
  void applyLive(const ParamSet& params) override;

  // Whiplash profile: largest end speed of each link k = 1..N (m/s).
  Eigen::VectorXd whiplashProfile() const { return ladder_.linkSpeeds(main_->state.v); }
  struct ConstraintStatus {
    std::string name;
    int group = 0;          // kGroupJoints, kGroupUnit, kGroupPins
    double violation = 0;   // m for joints/pins (gap), |u·u − 1|/2 for unit rows
    double force = 0;       // N: |λ|/h of the last SPOOK step (0 for the baselines)
    ConstraintRelaxation relaxation;
    bool overridden = false;
  };
  int constraintCount() const { return int(ladder_.system().constraints().size()); }
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
  std::string stabilityWarning() const;
  const SpookProfile* profile() const;
  struct GhostStatus {
    std::string stepper;
    bool diverged = false;
    double divergedAt = 0;
    std::string message;
    double energy = 0, constraintRms = 0;
  };
  std::vector<GhostStatus> ghosts() const;
  const Ladder& ladder() const { return ladder_; }

 private:
  void applyParams();
  double lastH() const { return lastH_ > 0 ? lastH_ : dt(); }

  Ladder ladder_;
  std::unique_ptr<RodSimulation> main_;
  std::vector<std::unique_ptr<RodSimulation>> ghosts_;
  std::map<int, ConstraintRelaxation> overrides_;
  std::deque<Eigen::Vector3d> trail_;
  double lastH_ = 0;
};

}  // namespace varsim
