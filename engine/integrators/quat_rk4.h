// engine/integrators/quat_rk4.h — classical RK4 on the continuous equations (15) of seed 004 (ERRATA sign) in the
// variables (x, q, p, w) of engine/models/quat_rigid_body.h: the non-geometric baseline of the orbit scene. The
// quaternion is NOT renormalised (q' = q (0, xi) keeps |q| only up to the O(h^4) error), so |q| - 1 shows what the Lie
// group update of quat_lgvi avoids; V is evaluated at the rotation of q/|q|. (engine/integrators/rk4_rigid_body.h is
// the seed 000 baseline on (x, q, omega, v) with renormalisation.)
#pragma once

#include <memory>
#include <vector>

#include "engine/integrators/step_time.h"
#include "engine/models/quat_rigid_body.h"

namespace varsim {

class QuatRk4 {
 public:
  // Throws BadInput on invalid inertia or a null potential.
  QuatRk4(RigidBodyInertia inertia, std::shared_ptr<const RigidPotential> potential);

  void initialize(const QuatRigidState& s0,
                  double t0);  // BadInput if not finite
  // One RK4 step. Throws SimulationDiverged (state unchanged) on a non-finite result; BadInput on h <= 0.
  void step(double h);

  const QuatRigidState& state() const { return s_; }
  double energy() const;  // kinetic + V, J
  double time() const { return clock_.now(); }

  // Layout (16 numbers): x (3), q (4), p (3), w (3), t_anchor, steps since anchor, h.
  std::vector<double> saveState() const;
  void loadState(const std::vector<double>& state);

 private:
  QuatRigidState rates(const QuatRigidState& s) const { return quatRigidRates(inertia_, *potential_, s); }

  RigidBodyInertia inertia_;
  std::shared_ptr<const RigidPotential> potential_;
  QuatRigidState s_;
  StepTime clock_;
  bool initialized_ = false;
};

}  // namespace varsim
