// The parameters every rod scene declares (step, gravity, stepper, solver, the rigid model's sub-step
// rules) and the relaxation parameters with their one ε/τ rule: global ε, τ (γ), per-group
// multipliers and per-constraint overrides, written into the SPOOK stepper; the divergence limits they imply.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "engine/integrators/spook.h"
#include "engine/integrators/spook_conventions.h"
#include "engine/models/rod_system.h"
#include "engine/sim/param.h"

namespace varsim {

// Relaxation parameters: epsilon, tau (+ gamma if the model has blades) and multipliers
// eps_<group>, tau_<group> for each named group; all live.
std::vector<ParamSpec> relaxationParams(const std::vector<std::string>& groups, double defaultTau, bool withGamma,
                                        double defaultEpsilon);
// The system's weight W = Σ m |g| (N), with the system's gravity.
double rodWeight(const RodSystem& system);
// Joint compliance against the load: a joint under force f stands open by ε|f| (SPOOK's row ελ + g = 0), and in a
// ladder's whip the most loaded joint pulls with up to 3.9 W (bench_ladder_robust --relin, N = 8000-10 000: ε|f| was the whole
// max gap, 8.9e-4 / 1.01e-3 / 1.14e-3 m at ε = 1e-10), so at a fixed ε the gap grows with N. Systems heavier than this
// have the joints' and pins' ε scaled by kComplianceWeight / W: their stretch under the whole weight, ε W, stays what
// it is at this weight (2e-4 m at the default 1e-10). Lighter systems (ladders up to 6795 links, every chain) keep ε.
constexpr double kComplianceWeight = 2e6;
// The ε/τ rule, in this one place (stepper set-up, panel readouts, warnings and tests use it): a
// constraint of group g has (ε, τ) = (epsilon · eps_g · s, tau · tau_g), multipliers 1 where the scene
// declares none for g, s = min(1, kComplianceWeight / weight) for the joints and pins of a system of that weight
// (N; 0: unknown, s = 1) and 1 for other groups, unless it has its own override, which replaces both.
SpookParameters effectiveRelaxation(const ParamSet& params, const std::string& group,
                                    const ConstraintRelaxation* override = nullptr, double weight = 0.0);
// Writes the relaxation of every constraint from the parameters, then the per-constraint overrides.
void applyRelaxation(SpookStepper& spook, const RodSystem& system, const ParamSet& params,
                     const std::map<int, ConstraintRelaxation>& overrides);
// Divergence limit on violations scaled by the softest compliance: a joint of compliance ε under
// the system's weight W may legitimately stretch ε W; beyond max(10 m, 10 ε W) it has come apart.
DivergenceLimits rodLimits(const RodSystem& system, double maxEpsilon);
// Threads of the SPOOK solve for `threads` (0: automatic) on a system of `bodies` bodies: two from
// kTwoThreadBodies on, else one. The block solver's second lane measured 1.2x at the 500-link ladder (1501 rods)
// and 1.35x at 1000 links with a free second core (bench_ladder --speed, load 1); with both cores busy (load 9)
// bench_ladder --threads measured 0.92-1.00 from 1000 links on and 0.85-0.94 below: two threads start where
// the gain is clear and the loss under load small.
constexpr int kTwoThreadBodies = 3000;
int solverThreads(long threads, size_t bodies);

// Parameters every RodScene declares besides the model's own: dt, gravity, stepper (the allowed
// ones), solver (default `solver`: "block" for the one-dimensional ladder and chain, whose constraint
// graphs it is built for), ghosts, trails, the relaxation parameters of `groups` and, if `rodModel` is
// given, the choice `rod_model` with that default, the rigid model's sub-step rules `max_chord` and
// `max_turn` and its re-linearisations `max_relinearise` (scenes without them use the director model).
// Default ε: 1e-10 with `rodModel` and joints (ladder, chain: stiff enough for their whiplash forces), else the paper's
// 1e-8 (the sleigh's rows hold no whip).
// Start rules of the rigid-rod ladder and chain on SPOOK: a sub-step rule (max_chord or max_turn > 0), and every
// joints and pins row needs tau tau_g >= 0.1 dt
// (kMinTauOverH; BadInput naming tau, the multiplier, dt and the tau that runs), at the start and for live edits.
void validateRigidRodStart(const ParamSet& params);
// rod_model = director on SPOOK (ladder, chain): refuses a dt that does not resolve sqrt(rod_length / |gravity|).
void validateDirectorStep(const ParamSet& params);
// The rigid rods' chord rule at rods whose shortest is `shortestRod` (m; 0: none): max_chord (0 without the key), capped
// at 1 % of that rod (kMaxChordPerLength; measured on the one-link ladder of 1e-4 m rods).
double effectiveMaxChord(const ParamSet& params, double shortestRod);
// The τ rule alone: every row of `groups` (those the scene declares a tau_<group> for) needs tau tau_g >= 0.1 dt
// (kMinTauOverH); BadInput naming tau, the multiplier, dt, `measured` (what was seen below the rule) and the tau that runs.
void validateRelaxationTime(const ParamSet& params, const std::vector<std::string>& groups, const std::string& measured);

std::vector<ParamSpec> rodSceneParams(const std::vector<std::string>& groups, bool allowRattle, bool withGamma,
                                      const char* rodModel = nullptr, const char* solver = "ldlt");

}  // namespace varsim
