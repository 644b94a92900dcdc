// tests/test_mpc_rollout.cpp — the roll-out of an unfinished plan (PlanInstance::rollOut, MpcSettings::rollout):
// the helicopter plan's controls flown through the scene's own step from the plan's start make a point whose
// dynamics rows (seed 000 eqs. (9)-(10) as the transcription states them) hold to round-off, which shows that the
// transcription and the scene's step are one mechanics; the controller adopts budgeted solves so rolled out, and
// `varsim mpc --rollout` is range-checked and refused for a problem without a roll-out.
#include <doctest/doctest.h>

#include <cmath>

#include "plan/plan_problem.h"
#include "tests/csv_table.h"
#include "tests/headless_capture.h"
#include "tests/plan_harness.h"

using namespace varsim;
using namespace varsim::test;

namespace {

// Largest |g_i| over the dynamics rows (the first dynamicsRowsPerSegment() N rows, right-hand side 0).
double dynamicsResidual(const PlanInstance& plan, const Eigen::VectorXd& x) {
  const Eigen::VectorXd g = plan.nlp().constraints(x);
  return g.head(plan.dynamicsRowsPerSegment() * plan.segments()).cwiseAbs().maxCoeff();
}

}  // namespace

TEST_CASE("HeliRollOutHoldsTheDynamicsRowsToRoundOff") {
  // heli_follow's problem from a moving, turning helicopter in the air; the initial guess with its rotor tilts
  // swept (within the rate limits) is a plan whose states do not follow from its controls.
  const PlanSetup setup = loadPlanProblem(
      problemFile("heli_follow"), {"start_position=112,0,8", "start_velocity=3,1,-0.5", "start_omega=0.1,-0.05,0.2"});
  const auto plan = PlanProblemRegistry::find("helicopter")->build(setup);
  REQUIRE(plan->hasRollOut());
  Eigen::VectorXd x = plan->nlp().initialGuess();
  const int N = plan->segments(), block = int(x.size() - 6) / N;  // [theta, x, xi, u / uScale] per segment
  for (int k = 1; k < N; ++k) {
    x[block * k + 14] = 0.4 * std::sin(0.3 * k);  // gamma_p / tilt range: <= 0.12 of it per step (rate 1.2 rad/s)
    x[block * k + 15] = 0.3 * std::cos(0.2 * k);  // gamma_r
  }
  const double before = dynamicsResidual(*plan, x);
  Eigen::VectorXd rolled = x;
  REQUIRE(plan->rollOut(rolled));
  const double after = dynamicsResidual(*plan, rolled);
  Eigen::VectorXd again = rolled;
  REQUIRE(plan->rollOut(again));
  MESSAGE("dynamics rows: " << before << " before the roll-out, " << after << " after; roll-out of the roll-out moves x by "
                            << (again - rolled).cwiseAbs().maxCoeff());
  CHECK(before > 0.1);
  CHECK(after <= 1e-9);  // measured 6.1e-14
  CHECK((again - rolled).cwiseAbs().maxCoeff() <= 1e-12);
  // The controls are the plan's (within the actuators' rates and ranges the scene passes them unchanged), the
  // start node is the plan's start.
  CHECK((rolled.segment(block + 12, 4) - x.segment(block + 12, 4)).cwiseAbs().maxCoeff() <= 1e-15);
  CHECK((rolled.head(6) - x.head(6)).cwiseAbs().maxCoeff() <= 1e-15);  // node 0: theta_0 = 0, x_0
  CHECK(rolled.segment(12, 4) == x.segment(12, 4));                      // u_0
}

TEST_CASE("MpcRollOutAdoptsBudgetedSolves") {
  // The climb from the ground at the canyon mouth with 5 Ipopt iterations per re-plan: no iterate satisfies the
  // dynamics rows, so without the roll-out no re-plan is adopted (exit 4); rolled out, every one is and the skids leave
  // the ground.
  const std::string off = testOut("mpc_rollout_off.csv"), on = testOut("mpc_rollout_on.csv");
  const std::vector<std::string> args = {"mpc", problemFile("heli_follow"), "--horizon", "30", "--kkt", "ldl",
                                         "--iterations", "5", "--duration", "1"};
  std::vector<std::string> a = args;
  a.insert(a.end(), {"--rollout", "false", "--csv", off});
  const HeadlessResult r0 = runCaptured(a);
  a = args;
  a.insert(a.end(), {"--rollout", "true", "--csv", on});
  const HeadlessResult r1 = runCaptured(a);
  INFO(r0.err << r1.err);
  CHECK(r0.exitCode == 4);
  REQUIRE(r1.exitCode == 0);
  const CsvTable t = readCsv(on);
  int adopted = 0;
  for (size_t k = 0; k < t.rows.size(); ++k) adopted += t.at(k, "mpc_status") == 1.0;
  const size_t last = t.rows.size() - 1;
  MESSAGE("rolled out: " << adopted << " of 10 adopted, z " << t.at(0, "z") << " -> " << t.at(last, "z")
                         << " m, skid clearance " << t.at(last, "clearance") << " m");
  CHECK(adopted == 10);
  CHECK(t.at(last, "clearance") > 0.5);  // measured 0.96 m at z = 2.9 m
}

TEST_CASE("MpcRollOutOptionIsRangeChecked") {
  const HeadlessResult bad =
      runCaptured({"mpc", problemFile("heli_follow"), "--duration", "0.1", "--rollout", "yes"});
  CHECK(bad.exitCode == 2);
  CHECK(bad.err.find("--rollout 'yes': allowed true or false") != std::string::npos);
  const HeadlessResult car = runCaptured({"mpc", problemFile("car_goto"), "--duration", "0.1", "--rollout", "true"});
  CHECK(car.exitCode == 2);
  CHECK(car.err.find("rollout true: scene 'car' has no roll-out") != std::string::npos);
}
