// Scene `ladder`: the paper's square ladder chain (seed 001 Sec. 6) falling from horizontal, stepped
// by SPOOK (or a baseline), optionally with the other steppers as translucent ghost ladders. The
// live-tuning accessors come from RodScene; the ladder adds the whiplash profile.
#pragma once
#include <Eigen/Core>

#include "engine/models/ladder.h"
#include "scenes/rods/rod_scene.h"

namespace varsim {

class LadderScene : public RodScene {
 public:
  explicit LadderScene(const ParamSet& params);
  // Whiplash profile: largest end speed of each link k = 1..N (m/s).
  Eigen::VectorXd whiplashProfile() const { return ladder_.linkSpeeds(main_->state.v); }
  SpeedProfile speedProfile() const override;  // the whiplash profile along the links
  const Ladder& ladder() const { return ladder_; }

 protected:
  void drawExtras(DrawList& out) const override;

 private:
  Ladder ladder_;
};

}  // namespace varsim
