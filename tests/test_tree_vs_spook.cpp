// Two formulations, one physical answer (issue 11): a planar chain of uniform rods as a seed 003 tree
// (hinge angles; each rod a mass m at its centre with inertia m l²/12 about the hinge axis, l/2 below the
// hinge) and as seed 001's rod chain (engine/models/hanging_chain.*: rods in (x, u) director form, ball
// joints and a pin, stepped by SPOOK with ε = 1e-10, τ = 2h). Both are released at rest, straight, at an
// angle from the downward vertical in the x–z plane. Point masses on massless rods (the pendulum scene)
// have no SPOOK twin — its rods need mass — so the uniform-rod chain is the system both model exactly.
// The tree side is integrated to round-off (RK4, h = 1e-3); SPOOK is first order, so the tip distance
// must shrink like h: err(h) <= C h with C = 0.5 m/s for h = 1/100 ... 1/3200, halving with h once
// asymptotic, to 0.1 mm at h = 1/3200 (the tip swings ~1 m).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "engine/integrators/spook.h"
#include "engine/integrators/tree_midpoint.h"
#include "engine/integrators/tree_rk4.h"
#include "engine/models/hanging_chain.h"
#include "engine/tree/pendulum_chain.h"

using namespace varsim;

namespace {

constexpr int kRods = 3;
constexpr double kMass = 0.5, kLength = 0.4, kAngle = 0.9, kT = 1.0;

// Tip (far end of the last rod) of the tree chain after kT seconds with the given stepper and h.
Eigen::Vector3d treeTip(bool rk4, double h) {
  tree::Tree t = tree::rodChain(kRods, kMass, kLength);
  std::unique_ptr<tree::TreeStepper> s;
  if (rk4) s = std::make_unique<tree::TreeRk4>(t);
  else s = std::make_unique<tree::TreeMidpoint>(t, 0.5);
  Eigen::VectorXd q0 = Eigen::VectorXd::Zero(kRods);
  q0(0) = -kAngle;  // a rotation about +y by -angle turns -z towards +x, as the chain's start direction
  const tree::TreeForcing none;
  s->initialize(q0, Eigen::VectorXd::Zero(kRods), h, none);
  for (long k = 0; k < std::lround(kT / h); ++k) s->step(none);
  t.setQ(s->q());
  return t.g(t.frames() - 1).topRightCorner<3, 1>();
}

Eigen::Vector3d spookTip(double h) {
  HangingChainConfig c;
  c.rods = kRods, c.rodMass = kMass, c.rodLength = kLength, c.angle = kAngle, c.tilt = 0;
  HangingChain chain(c);
  SpookStepper spook(chain.system());
  ConstraintRelaxation r;
  r.epsilon = 1e-10, r.tau = 2 * h;
  spook.setAllRelaxation(r);
  MechanicalState state = chain.system().initialState();
  for (long k = 0; k < std::lround(kT / h); ++k) spook.step(state, h);
  return chain.system().point(chain.tipPoint(), state.q);
}

}  // namespace

TEST_CASE("TreeChainMatchesSpookRodsAsHShrinks") {
  const Eigen::Vector3d reference = treeTip(true, 1e-3);
  // The tree's own discretisation is far below SPOOK's at these h: midpoint at h = 1/100 vs the reference.
  const double midpointErr = (treeTip(false, 0.01) - reference).norm();
  MESSAGE("tree midpoint h = 0.01 vs RK4 reference: " << midpointErr << " m; tip " << reference.transpose());
  CHECK(midpointErr < 1e-3);
  std::vector<double> err;
  for (double h : {1.0 / 100, 1.0 / 200, 1.0 / 400, 1.0 / 800, 1.0 / 1600, 1.0 / 3200}) {
    err.push_back((spookTip(h) - reference).norm());
    MESSAGE("h = " << h << ": |tip_spook - tip_tree| = " << err.back() << " m (" << err.back() / h << " h)");
    CHECK(err.back() <= 0.5 * h);  // C = 0.5 m/s
  }
  // First order once asymptotic (measured ratios 1.35, 1.66, 1.83, 1.92, 1.96; err ≈ 0.35 h at the end).
  for (size_t i = 2; i + 1 < err.size(); ++i) CHECK(err[i] / err[i + 1] > 1.8);
  CHECK(err.front() / err.back() > 10);
  CHECK(err.back() < 2e-4);
}
