// Rod-scene parameters and the relaxation rule (see rod_scene_params.h).
#include "scenes/rods/rod_scene_params.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/integrators/rigid_rod_spook.h"
#include "engine/sim/errors.h"

namespace varsim {

std::vector<ParamSpec> relaxationParams(const std::vector<std::string>& groups, double defaultTau, bool withGamma,
                                        double defaultEpsilon) {
  std::vector<ParamSpec> p;
  p.push_back(
      ParamSpec::real("epsilon", defaultEpsilon, 0.0, 1.0, "m/N",
                      "SPOOK regularisation ε (compliance) of every holonomic row: a joint under force f stands "
                      "open by about ε|f| (m/N x N). Paper (seed 001): 1e-8; the rigid-rod ladder and chain default "
                      "to 1e-10, which keeps whiplash gaps (forces up to 1e6 N) within a few mm. The joints and pins of a "
                      "system weighing W > 2e6 N (ladders above 6795 links) get epsilon x 2e6 N / W, so their stretch "
                      "under the whip's pull (up to ~4 W) does not grow with N. 0 only without redundant constraints")
          .setLive()
          .setLog());
  p.push_back(ParamSpec::real("tau", defaultTau, 0.0, 10.0, "s",
                              "SPOOK stabilisation time τ in seconds (default 2h at dt = 1/60). It stays fixed in seconds "
                              "when dt changes, so τ/h changes with it (dt = 1/120 makes the default 4h). Rigid-rod ladder and "
                              "chain: tau tau_joints and tau tau_pins below 0.1 dt are refused (0.1 dt ran; 0.05 dt gained "
                              "energy, 0 stopped within 1.5 s); sleigh: tau tau_plane below 0.1 dt (0 lifted the rod 8.6 m "
                              "off the ground at speed 100)")
                  .setLive());
  if (withGamma)
    p.push_back(ParamSpec::real("gamma", 1e-8, 0.0, 1.0, "s/kg", "SPOOK relaxation γ of the nonholonomic rows (Γ = γ/h)")
                    .setLive()
                    .setLog());
  for (const auto& g : groups) {
    p.push_back(ParamSpec::real("eps_" + g, 1.0, 0.0, 1e8, "", "multiplier of epsilon for the " + g + " rows").setLive().setLog());
    p.push_back(ParamSpec::real("tau_" + g, 1.0, 0.0, 100.0, "", "multiplier of tau for the " + g + " rows").setLive());
  }
  return p;
}

double rodWeight(const RodSystem& system) {
  double weight = 0.0;
  for (const auto& b : system.bodies()) weight += b.mass * system.gravity().norm();
  return weight;
}

SpookParameters effectiveRelaxation(const ParamSet& params, const std::string& group, const ConstraintRelaxation* override,
                                    double weight) {
  if (override) return {override->epsilon, override->tau};
  SpookParameters p{params.real("epsilon"), params.real("tau")};
  if (params.spec("eps_" + group)) p.epsilon *= params.real("eps_" + group);
  if (params.spec("tau_" + group)) p.tau *= params.real("tau_" + group);
  if ((group == "joints" || group == "pins") && weight > kComplianceWeight) p.epsilon *= kComplianceWeight / weight;
  return p;
}

void applyRelaxation(SpookStepper& spook, const RodSystem& system, const ParamSet& params,
                     const std::map<int, ConstraintRelaxation>& overrides) {
  const auto names = system.groupNames();
  const double weight = rodWeight(system);
  const double gamma = params.spec("gamma") ? params.real("gamma") : 1e-8;
  for (size_t gi = 0; gi < names.size(); ++gi) {
    const SpookParameters p = effectiveRelaxation(params, names[gi], nullptr, weight);
    spook.setGroupRelaxation(int(gi), {p.epsilon, p.tau, gamma});
  }
  for (const auto& [i, r] : overrides) spook.setRelaxation(i, r);
}

DivergenceLimits rodLimits(const RodSystem& system, double maxEpsilon) {
  DivergenceLimits limits;
  limits.maxViolation = std::max(limits.maxViolation, 10.0 * maxEpsilon * rodWeight(system));
  return limits;
}

int solverThreads(long threads, size_t bodies) {
  if (threads > 0) return int(threads);
  return bodies >= size_t(kTwoThreadBodies) ? 2 : 1;
}

// The scenes' re-linearisations per sub-step (max_relinearise; chosen by bench_ladder_robust --relin).
constexpr long kRelineariseDefault = 4;
// The joints' compliance ε (m/N) of the scenes with a rod-model choice (ladder, chain). A joint under force f
// stands open by ε|f| (SPOOK's row ελ + g + τġ = 0), and whiplash forces reach 1e5–2e6 N (ladders N = 150–1000)
// and more at N = 5000: at the paper's 1e-8 that alone opened gaps of 2e-2 / 5e-2 m (N = 1000 / 5000), max-over-
// time RMS 7e-3 / 1.7e-2 m. 1e-10 brings both under the issue-16 bounds (1e-2 m, RMS 1e-3 m) for every measured
// size (bench_ladder_robust --relin); other rod scenes keep the paper's value.
constexpr double kRodModelEpsilon = 1e-10;
constexpr double kPaperEpsilon = 1e-8;  // seed 001 Sec. 6 (ERRATA: h = 1/60, ε = 1e-8, τ = 2h)

// tau/h below which a rigid-rod start is refused. Measured (`varsim run`, rigid rods, dt = 1/60): tau/h = 0.1 and
// 0.25 ran the chain and the ladder 10 s alone and 3 s with gravity 100 per axis, eps_pins 1e8, eps_joints 1e8,
// rod_length 1e-4 or rod_mass 1e-6 (chain also angle pi, tip_mass 1e6, 1000 rods), unflagged; tau/h = 0.05 flagged
// the chain with rod_length 1e-4 (0.048 did not: the edge is ragged), 0.0096 stopped it at step 5 and flagged the
// ladder at 10 s; tau = 0 (the range end) stopped both at t = 1.2-1.5 s, tau_pins = 0 the chain at 2.96 s. The
// director model's unit rows behave otherwise (tau_unit = 0 ran, 0.048 h stopped): not ruled.
constexpr double kMinTauOverH = 0.1;

// The chord rule is a length: at max_chord = 1e-4 m (the default) a one-link ladder of 1e-4 m rods, whose sub-steps
// could then miss a rod end by its whole length, gained a rod's m g l at step 1 (+0.0102 J > 0.0038 J tolerance); at
// 1e-6 m (1 % of the rod) it ran 3 s unflagged. Rods of 0.01 m and longer keep max_chord as given.
constexpr double kMaxChordPerLength = 0.01;

double effectiveMaxChord(const ParamSet& p, double shortestRod) {
  const double chord = p.spec("max_chord") ? p.real("max_chord") : 0.0;
  return shortestRod > 0 ? std::min(chord, kMaxChordPerLength * shortestRod) : chord;
}

void validateRigidRodStart(const ParamSet& p) {
  if (p.choice("stepper") != "spook" || p.choice("rod_model") != "rigid") return;
  // No sub-step rule at all: measured, the chain of 20 gained energy from t = 1.23 s (+60 J > 12.3 J), with
  // gravity 100 per axis it came apart at 1.17 s, the chain of 1000 at 8.6 s, ladders N = 150 and 1000 at 4.9 and
  // 3.3 s; max_turn = 0.03 or any max_chord > 0 (1e-9 to 0.1) ran the chain 3 s unflagged, also at gravity 100.
  if (p.real("max_chord") == 0 && p.real("max_turn") == 0)
    throw BadInput("key 'max_chord' = 0 with max_turn = 0: rigid rods without any sub-step rule gained energy or came "
                   "apart (chain of 20 flagged at 1.2 s, ladders N = 150 and 1000 stopped at 4.9 and 3.3 s); "
                   "max_chord > 0 (default 1e-4 m) or max_turn = 0.03 rad runs");
  validateRelaxationTime(p, {"joints", "pins"},
                         "tau = 0 stopped the chain and the ladder within 1.5 s, tau/h = 0.0096 at step 5, 0.05 gained "
                         "energy; 0.1 ran");
}

// The paper's director rods (rod_model = director) hold u.u = 1 by a linearised row that runs away once a step no
// longer resolves the rods' swing, whose time unit is sqrt(rod_length / |gravity|). Measured (chain and ladder,
// 10 s at rod_length 1e-3, 0.25 and 1 m, default keys): dt sqrt(|g| / l) = 0.2 and 0.25 stopped every chain and the
// 0.25 and 1 m ladders (unit row past 10 within 21-66 steps), 0.33 also the 1e-3 m ladder and rods of 1e-4 to 0.03 m
// under gravity 9.81 or 100 per axis (3 s); 0.1 and 0.14 ran every one of them to the end (the 1 m chain and ladder
// were flagged there: the director's energy drift on long rods, not ruled), 0.052 ran 1e-3 to 10 m unflagged.
constexpr double kDirectorScaledStep = 0.15;

void validateDirectorStep(const ParamSet& p) {
  if (p.choice("stepper") != "spook" || p.choice("rod_model") != "director") return;
  const double g = p.vec3("gravity").norm(), l = p.real("rod_length");
  const double scaled = p.real("dt") * std::sqrt(g / l);
  if (!(scaled > kDirectorScaledStep)) return;
  throw BadInput("key 'rod_model' = director with dt = " + p.valueText("dt") + " s, rod_length = " +
                 p.valueText("rod_length") + " m and gravity = " + p.valueText("gravity") +
                 ": dt sqrt(|gravity| / rod_length) = " + formatNumber(scaled) + " exceeds " +
                 formatNumber(kDirectorScaledStep) + " (the unit rows ran away: 0.2 stopped the measured chains and "
                 "ladders within 66 steps, 0.14 ran them); allowed here dt <= " +
                 formatNumber(kDirectorScaledStep * std::sqrt(l / g)) + " s, or rod_model = rigid");
}

void validateRelaxationTime(const ParamSet& p, const std::vector<std::string>& groups, const std::string& measured) {
  const double h = p.real("dt");
  for (const std::string& group : groups) {
    const std::string multiplier = "tau_" + group;
    if (!p.spec(multiplier)) continue;
    const double tau = effectiveRelaxation(p, group).tau;
    if (tau >= kMinTauOverH * h) continue;
    throw BadInput("key 'tau' = " + p.valueText("tau") + " s with " + multiplier + " = " + p.valueText(multiplier) +
                   ", dt = " + p.valueText("dt") + " s: the " + group + " rows' stabilisation time tau " +
                   multiplier + " = " + formatNumber(tau) + " s is tau/h = " + formatNumber(tau / h) +
                   ", below " + formatNumber(kMinTauOverH) + " (constraint oscillations undamped: " + measured +
                   "); tau " + multiplier + " >= " + formatNumber(kMinTauOverH * h) + " s runs");
  }
}

std::vector<ParamSpec> rodSceneParams(const std::vector<std::string>& groups, bool allowRattle, bool withGamma,
                                      const char* rodModel, const char* solver) {
  std::vector<std::string> steppers{"spook", "rk4_baumgarte"};
  if (allowRattle) steppers.push_back("rattle");
  std::vector<ParamSpec> p{
      ParamSpec::real("dt", 1.0 / 60, 1e-6, 0.1, "s",
                      "physics step h, from 1e-6 s (ran with tau = 10; at 1e-308 the SPOOK system was singular)"),
      ParamSpec::vector("gravity", {0, 0, -9.81}, -100, 100, "m/s^2", "gravity (world z up)").setLive(),
      ParamSpec::choice("stepper", "spook", steppers, "integrator: SPOOK (seed 001 eq. 29) or a baseline"),
      ParamSpec::choice("solver", solver, {"ldlt", "umfpack", "block"},
                        "SPOOK linear solver: LDL^T on the quasi-definite form, UMFPACK LU (the paper's) or the "
                        "block-tridiagonal Cholesky of J M^-1 J^T + D over the levels of the constraint graph (ladders, "
                        "chains: ~1.6x faster than LDL^T, same result to round-off)")
          .setLive(),
      ParamSpec::boolean("ghosts", false, "also run the other steppers as translucent ghosts (divergence shown)"),
      ParamSpec::boolean("trails", true, "trail of the tip").setLive(),
  };
  if (rodModel) {
    p.push_back(ParamSpec::choice("rod_model", rodModel, {"rigid", "director"},
                                  "SPOOK's rod: rigid body on R3 x S2 (length exact, joint rows only) or the paper's "
                                  "centre + director with the row u.u = 1 (seed 001 Sec. 6; ladder and chain: refused when dt sqrt(|gravity| / "
                                  "rod_length) > 0.15; its unit residual runs away "
                                  "when rods spin fast)"));
    p.push_back(ParamSpec::real("max_chord", 1e-4, 0.0, 0.1, "m",
                                "rigid rods: a sub-step whose joint linearisation missed a rod end by more than this (at "
                                "most 1 % of the shortest rod) is redone shorter (adaptive sub-steps, down to dt/64; 0: off). The miss grows with the "
                                "change of a rod's rotation rate within the step (whiplash), not with the rate itself. "
                                "0 with max_turn = 0 (no sub-step rule) is refused on SPOOK: the chain of 20 gained "
                                "energy from 1.2 s, ladders N = 150 and 1000 stopped at 4.9 and 3.3 s"));
    p.push_back(ParamSpec::integer("max_relinearise", kRelineariseDefault, 0, RigidRodSpook::kMaxRelinearise,
                                   "rigid rods: a sub-step that missed max_chord is first solved again with the joint "
                                   "rows linearised about the pose it reached, up to this many times (Newton on the rows "
                                   "at the end pose); one still missing is redone in sub-steps (0: sub-steps only)"));
    p.push_back(ParamSpec::integer("threads", 0, 0, 2,
                                   "threads of the SPOOK solve: the block solver eliminates from both ends of the chain "
                                   "at once on 2, with results bit-identical to 1; 0: 2 from 3000 bodies on (the "
                                   "1000-link ladder: 1.35x with a free second core, at par when it is busy), else 1")
                    .setLive());
    p.push_back(ParamSpec::real("max_turn", 0.0, 0.0, 3.14159265358979, "rad",
                                "rigid rods: also keep every sub-step's rotation of the fastest rod below this (0: off; "
                                "before max_chord existed 0.03 was needed for the gaps, at 2-7x the cost)"));
  }
  const bool whippingJoints = rodModel && std::find(groups.begin(), groups.end(), "joints") != groups.end();
  for (auto& r : relaxationParams(groups, 2.0 / 60, withGamma, whippingJoints ? kRodModelEpsilon : kPaperEpsilon))
    p.push_back(r);
  return p;
}

}  // namespace varsim
