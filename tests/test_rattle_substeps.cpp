// RATTLE's sub-step retry (engine/integrators/rattle.h): a step whose position Newton fails is redone as 2^j equal
// RATTLE steps. Checked on the default hanging chain at h = 1/60 (its whipping tip stopped the plain scheme at
// t = 0.88 s) and on a slow chain where no retry happens.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "engine/integrators/rattle.h"
#include "engine/models/hanging_chain.h"
#include "engine/sim/errors.h"

using namespace varsim;

TEST_CASE("RattleSubstepsCarryTheDefaultChainPastItsWhip") {
  HangingChainConfig c;  // the chain scene's defaults: 20 rods of 0.25 m and 0.25 kg, horizontal, tilt 0.3
  c.tilt = 0.3;
  const HangingChain chain(c);
  const RodSystem& sys = chain.system();
  Rattle rattle(sys);
  MechanicalState s = sys.initialState();
  const double E0 = rodDiagnostics(sys, s).energy;
  int firstRetry = -1, maxSub = 1;
  double maxGap = 0, maxUnit = 0, maxExcess = -1e300;
  for (int k = 0; k < 72; ++k) {  // 1.2 s
    rattle.step(s, 1.0 / 60);
    if (rattle.lastSubsteps() > 1 && firstRetry < 0) firstRetry = k + 1;
    maxSub = std::max(maxSub, rattle.lastSubsteps());
    const RodDiagnostics d = rodDiagnostics(sys, s);
    maxGap = std::max(maxGap, d.constraintMax), maxUnit = std::max(maxUnit, d.unitMax);
    maxExcess = std::max(maxExcess, d.energy - E0);
  }
  MESSAGE("first retried step " << firstRetry << ", most sub-steps " << maxSub << ", max gap " << maxGap
                                << " m, max unit " << maxUnit << ", max E - E0 " << maxExcess << " J");
  CHECK(firstRetry == 54);  // to t = 0.9 s: the step the plain scheme stopped at (t = 0.883 s before it)
  CHECK(maxSub >= 2);
  CHECK(maxSub <= 8);
  CHECK(maxGap < 1e-9);
  CHECK(maxUnit < 1e-9);
  CHECK(maxExcess < 0.5);  // measured 0.35 J (E0 = 0: the chain starts level with its pin)
  CHECK(s.t == doctest::Approx(1.2).epsilon(1e-12));
  CHECK(s.step == 72);
}

TEST_CASE("RattleWithoutRetryIsThePlainScheme") {
  HangingChainConfig c;
  c.rods = 3, c.rodMass = 1.0, c.rodLength = 0.5, c.angle = 1.0, c.tilt = 0.4;
  const HangingChain chain(c);
  Rattle rattle(chain.system());
  MechanicalState s = chain.system().initialState();
  int maxSub = 1, maxIt = 0;
  for (int k = 0; k < 60; ++k) {
    rattle.step(s, 1.0 / 60);
    maxSub = std::max(maxSub, rattle.lastSubsteps());
    maxIt = std::max(maxIt, rattle.lastNewtonIterations());
  }
  CHECK(maxSub == 1);
  CHECK(maxIt >= 1);
  CHECK(maxIt <= 6);
}
