// engine/integrators/quat_rk4.cpp — RK4 on seed 004 eq. (15) without quaternion renormalisation.
#include "engine/integrators/quat_rk4.h"

#include <cmath>
#include <string>
#include <utility>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {
namespace {

// a + c d, component-wise over the state.
QuatRigidState axpy(const QuatRigidState& a, double c, const QuatRigidState& d) {
  QuatRigidState r;
  r.x = a.x + c * d.x;
  r.q = a.q + c * d.q;
  r.p = a.p + c * d.p;
  r.w = a.w + c * d.w;
  return r;
}

bool finite(const QuatRigidState& s) {
  return s.x.allFinite() && s.q.allFinite() && s.p.allFinite() && s.w.allFinite();
}

}  // namespace

QuatRk4::QuatRk4(RigidBodyInertia inertia, std::shared_ptr<const RigidPotential> potential)
    : inertia_(std::move(inertia)), potential_(std::move(potential)) {
  validateInertia(inertia_);
  if (!potential_) throw BadInput("quat_rk4: no potential given");
}

void QuatRk4::initialize(const QuatRigidState& s0, double t0) {
  if (!finite(s0) || !std::isfinite(t0) || s0.q.norm() == 0.0) throw BadInput("quat_rk4: initial state not finite");
  s_ = s0;
  clock_.reset(t0, 0.0);
  initialized_ = true;
}

void QuatRk4::step(double h) {
  if (!initialized_) throw BadInput("quat_rk4: step called before initialize");
  if (!(h > 0.0 && std::isfinite(h)))
    throw BadInput("quat_rk4: step size h = " + formatNumber(h) + ": allowed (0, inf) s");
  const QuatRigidState k1 = rates(s_);
  const QuatRigidState k2 = rates(axpy(s_, 0.5 * h, k1));
  const QuatRigidState k3 = rates(axpy(s_, 0.5 * h, k2));
  const QuatRigidState k4 = rates(axpy(s_, h, k3));
  QuatRigidState next = axpy(s_, h / 6.0, k1);
  next = axpy(next, h / 3.0, k2);
  next = axpy(next, h / 3.0, k3);
  next = axpy(next, h / 6.0, k4);
  if (!finite(next) || next.q.norm() == 0.0)
    throw SimulationDiverged("quat_rk4: state became non-finite at step " + std::to_string(clock_.steps + 1) +
                             " (t = " + formatNumber(time() + h) + ")");
  s_ = next;
  clock_.advance(h);
}

double QuatRk4::energy() const {
  return quatRigidKineticEnergy(inertia_, s_) + potential_->value(s_.x, quat::toRotation(s_.q));
}

std::vector<double> QuatRk4::saveState() const {
  std::vector<double> out;
  appendQuatRigidState(s_, out);
  clock_.save(out);
  return out;
}

void QuatRk4::loadState(const std::vector<double>& state) {
  checkSavedState(state, 16, "quat_rk4 state");
  const QuatRigidState s = quatRigidStateFromNumbers(state.data());
  if (!(std::abs(s.q.norm() - 1.0) < 0.5))
    throw BadInput("quat_rk4 state: |q| = " + formatNumber(s.q.norm()) + " too far from 1");
  if (!(state[15] >= 0.0) || state[14] < 0.0 || state[14] > 1e15)
    throw BadInput("quat_rk4 state: step count or h out of range");
  s_ = s;
  clock_.load(state.data() + 13);
  initialized_ = true;
}

}  // namespace varsim
