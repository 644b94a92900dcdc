// engine/integrators/rk2_rigid_body.cpp — explicit midpoint RK2 on (x, q,
// omega, v), renormalised per stage.
#include "engine/integrators/rk2_rigid_body.h"

namespace varsim {

void Rk2RigidBody::step(double h, const WrenchField& f) {
  requireStep(h);
  const double t = time();
  const RigidStageRate k2 = rigidStageFrom(*this, 0.5 * h, rigidStageRate(*this, q_, x_, xi_, t, f), t + 0.5 * h, f);
  commit(h, q_ + h * k2.qdot, x_ + h * k2.xdot, xi_ + h * k2.xidot);
}

}  // namespace varsim
