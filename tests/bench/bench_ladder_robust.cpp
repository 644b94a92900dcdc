// Robustness of SPOOK's two rod models at the issue-16 settings (h = 1/60, ε = 1e-8, τ = 2h, 60 s):
// ladders N ∈ {20, 150, 300, 1000} released horizontally and chains of 20–1000 rods (0.25 m,
// 0.25 kg, horizontal, tilt 0.3). Per run: time reached (or the divergence), max joint gap, max and
// mean over time of the joint-gap RMS, the joints' compliance gap ε|f|, max E − E(0), max |u·u − 1|/2,
// peak end speed, CPU per step (mean, p99) and, for the rigid model, the mean sub-steps and SPOOK solves
// per step and the steps with a sub-step redone shorter (rigid_rod_spook.h).
//   bench_ladder_robust [T [maxChord [maxTurn]]]  all cases, T seconds (default 60), sub-step rules of
//                                           the scenes by default (max_chord 1e-4 m, max_turn 0; the rigid model
//                                           with sub-steps re-linearises like the scenes, max_relinearise 4)
//   bench_ladder_robust T kind N [maxChord [maxTurn [rigid]]]  one case: kind ladder|chain; maxChord (m)
//                                           or maxTurn (rad) > 0 adds the rigid model with sub-steps; `rigid`:
//                                           only that model
//   bench_ladder_robust --relin T kind N EPS K [REACH [a|b|c [CHORD]]]  one case at compliance EPS: sub-steps only,
//                                           K re-linearisations only, K re-linearisations + sub-steps (max_chord
//                                           CHORD, default 1e-4 m; REACH: rigid_rod_spook.h; contraction per iteration)
//   bench_ladder_robust --soak [S [--links N | --chain N]]  the `ladder` scene of N links (1000; or the `chain`
//                                           scene of N rods) for S s (300) with all the scene's defaults, stepped as the
//                                           app does (ladder_peer_scene.h): a line every 10 s; exit 3 on divergence,
//                                           4 on E > E(0)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "engine/integrators/rigid_rod_spook.h"
#include "engine/models/hanging_chain.h"
#include "engine/models/ladder.h"
#include "engine/solvers/sparse_solver.h"
#include "tests/bench/ladder_peer_scene.h"

using namespace varsim;

namespace {

constexpr double kSceneMaxChord = 1e-4;  // m: the scenes' default max_chord (scenes/rods/rod_scene_params.cpp)
constexpr int kSceneRelinearise = 4;      // the scenes' default max_relinearise (scenes/rods/rod_scene_params.cpp)

// The bench's systems: the ladder of n links, or the chain of n rods (0.25 m, 0.25 kg, horizontal, tilt 0.3).
struct BenchSystem {
  std::unique_ptr<Ladder> ladder;
  std::unique_ptr<HangingChain> chain;
  BenchSystem(bool isChain, int n) {
    if (isChain) chain = std::make_unique<HangingChain>(HangingChainConfig{n, 0.25, 0.25, 1.5707963267948966, 0.3});
    else ladder = std::make_unique<Ladder>(LadderConfig{n});
  }
  const RodSystem& system() const { return ladder ? ladder->system() : chain->system(); }
};

struct Row {
  double reached = 0, maxGap = 0, maxRms = 0, meanRms = 0, maxExcess = -1e300, maxUnit = 0, maxSpeed = 0, cpuMs = 0;
  double meanSub = 0, meanSolves = 0, p99Ms = 0, maxCompliance = 0, maxComplianceRms = 0, gap10 = 0;
  long redone = 0;
  int maxSolves = 0;
  // Re-linearisation contraction: sums of log(miss_j / miss_{j−1}) and log(miss_j / miss_{j−1}²) per index j.
  double logRatio[4] = {0, 0, 0, 0}, logQuad[4] = {0, 0, 0, 0};
  long ratioCount[4] = {0, 0, 0, 0};
  std::string failure;
};

// Options of one run: model 0 director (the paper's stepper), 1 rigid, 2 rigid with the sub-step rules
// maxChord, maxTurn and `relinearise` re-linearisations (rigid_rod_spook.h; fallback: sub-steps after them).
struct RunOptions {
  int model = 0;
  double T = 60, maxChord = 0, maxTurn = 0, epsilon = 1e-8;
  int relinearise = 0;
  bool fallback = true;
  double reach = RigidRodSpook::kRelineariseReach;
};

// Accumulates the contraction of the iterations of the last step's sub-steps.
void addContraction(const RigidRodSpook& rigid, Row& r) {
  const auto& log = rigid.lastSolveLog();
  for (size_t i = 1; i < log.size(); ++i) {
    const int j = log[i].iteration;
    if (j < 1 || j > 3 || !(log[i - 1].miss > 0) || !(log[i].miss > 0)) continue;
    r.logRatio[j] += std::log(log[i].miss / log[i - 1].miss);
    r.logQuad[j] += std::log(log[i].miss / (log[i - 1].miss * log[i - 1].miss));
    ++r.ratioCount[j];
  }
}

// The joints' own give, ε|f| (m) with f the force of the last sub-step (impulse / its length): what
// SPOOK's compliant rows ελ + g = 0 leave open however exactly the step is solved. RMS and max over
// joints and pins.
void complianceGap(const RodSystem& sys, const RigidRodSpook& rigid, double& rms, double& worst) {
  const SpookStepper& spook = rigid.spook();
  double sum = 0;
  const std::vector<int> joints = sys.jointConstraintIndices();
  for (int c : joints) {
    const double e = spook.relaxation(c).epsilon *
                     spook.multipliers().segment(spook.rowOffset(c), spook.rowCount(c)).norm() / rigid.lastSubStepLength();
    sum += e * e;
    worst = std::max(worst, e);
  }
  rms = std::sqrt(sum / double(std::max<size_t>(1, joints.size())));
}

Row run(const RodSystem& sys, const RunOptions& o) {
  const double h = 1.0 / 60, T = o.T;
  std::unique_ptr<SpookStepper> director;
  std::unique_ptr<RigidRodSpook> rigid;
  const bool rules = o.model == 2;
  if (o.model == 0) director = std::make_unique<SpookStepper>(sys);
  else rigid = std::make_unique<RigidRodSpook>(sys, SpookConfig{}, rules ? o.maxTurn : 0.0, rules ? o.maxChord : 0.0);
  if (rigid && rules) rigid->setRelinearise(o.relinearise, o.fallback, o.reach);
  ConstraintRelaxation relax;
  relax.epsilon = o.epsilon;
  director ? director->setAllRelaxation(relax) : rigid->spook().setAllRelaxation(relax);
  MechanicalState s = sys.initialState();
  const double E0 = rodDiagnostics(sys, s).energy;
  Row r;
  const long steps = std::lround(T / h);
  double cpu = 0;
  std::vector<double> stepMs;
  for (long k = 0; k < steps; ++k) {
    const std::clock_t c0 = std::clock();
    try {
      director ? director->step(s, h) : rigid->step(s, h);
    } catch (const std::exception& e) {
      r.failure = e.what();
      break;
    }
    stepMs.push_back(double(std::clock() - c0) / CLOCKS_PER_SEC * 1000.0);
    cpu += stepMs.back();
    if (rigid) {
      r.meanSub += rigid->lastSubSteps(), r.meanSolves += rigid->lastSolves(), r.redone += rigid->lastRedone();
      r.maxSolves = std::max(r.maxSolves, rigid->lastSolves());
      addContraction(*rigid, r);
    }
    const RodDiagnostics d = rodDiagnostics(sys, s);
    if (rigid) {
      double rms = 0, worst = 0;
      complianceGap(sys, *rigid, rms, worst);
      r.maxCompliance = std::max(r.maxCompliance, worst);
      r.maxComplianceRms = std::max(r.maxComplianceRms, rms);
    }
    r.reached = s.t;
    r.maxGap = std::max(r.maxGap, d.constraintMax);
    if (s.t <= 10.0 + 1e-9) r.gap10 = r.maxGap;
    r.maxRms = std::max(r.maxRms, d.constraintRms);
    r.meanRms += d.constraintRms / double(steps);
    r.maxExcess = std::max(r.maxExcess, d.energy - E0);
    r.maxUnit = std::max(r.maxUnit, d.unitMax);
    r.maxSpeed = std::max(r.maxSpeed, d.maxSpeed);
  }
  r.cpuMs = cpu / std::max(1.0, r.reached / h);
  r.meanSub /= std::max(1.0, r.reached / h);
  r.meanSolves /= std::max(1.0, r.reached / h);
  if (!stepMs.empty()) {
    std::sort(stepMs.begin(), stepMs.end());
    r.p99Ms = stepMs[size_t(0.99 * double(stepMs.size() - 1))];
  }
  return r;
}

void printCase(const char* kind, int n, double T, double maxChord, double maxTurn, bool onlySubSteps = false) {
  const BenchSystem bench(std::strcmp(kind, "ladder") != 0, n);
  const RodSystem& sys = bench.system();
  const char* names[3] = {"director", "rigid", "rigid+sub"};
  const bool subSteps = maxTurn > 0 || maxChord > 0;
  for (int model = onlySubSteps && subSteps ? 2 : 0; model < (subSteps ? 3 : 2); ++model) {
    const Row r = run(sys, RunOptions{model, T, maxChord, maxTurn, 1e-8, model == 2 ? kSceneRelinearise : 0});
    std::printf("%-6s %5d %-9s %6.2f %9.3g %9.3g %9.3g %9.3g %9.3g %10.4g %9.3g %8.4g %7.3f %7.2f %5.2f %5.2f %5ld  %s\n",
                kind, n, names[model], r.reached, r.maxGap, r.maxRms, r.meanRms, r.maxCompliance, r.maxComplianceRms,
                r.maxExcess, r.maxUnit, r.maxSpeed, r.cpuMs, r.p99Ms, r.meanSub, r.meanSolves, r.redone,
                r.failure.empty() ? "ok" : r.failure.c_str());
    std::fflush(stdout);
  }
}

// Re-linearisation against sub-steps (rigid_rod_spook.h): one case, three rows — (a) sub-steps only (today),
// (b) up to K re-linearisations and no sub-steps, (c) K re-linearisations within reach (rigid_rod_spook.h),
// the sub-step redo beyond it or if they do not bring the miss below max_chord — at the
// scenes' max_chord and compliance ε. Contraction: geometric mean of miss_j / miss_{j−1} (and of
// miss_j / miss_{j−1}², Newton's constant in 1/m) over the iterations j = 1, 2, 3 of the run.
void printRelinearise(const char* kind, int n, double T, double epsilon, int K, double reach, int only, double chord) {
  const BenchSystem bench(std::strcmp(kind, "ladder") != 0, n);
  const RodSystem& sys = bench.system();
  const char* names[3] = {"(a) sub", "(b) iter", "(c) iter+sub"};
  for (int variant = 0; variant < 3; ++variant) {
    if (only >= 0 && variant != only) continue;
    // (b) iterates every sub-step whatever its plain miss (no reach: nothing else would happen to it).
    const RunOptions o{2, T, chord, 0.0, epsilon, variant == 0 ? 0 : K, variant != 1, variant == 1 ? 1e300 : reach};
    const Row r = run(sys, o);
    std::printf("%-6s %5d %5.0e %2d %-12s %6.2f %9.3g %9.3g %9.3g %9.3g %9.3g %10.4g %7.3f %7.2f %5.2f %5.2f %3d %5ld", kind,
                n, epsilon, o.relinearise, names[variant], r.reached, r.maxGap, r.gap10, r.maxRms, r.meanRms, r.maxCompliance,
                r.maxExcess, r.cpuMs, r.p99Ms, r.meanSub, r.meanSolves, r.maxSolves, r.redone);
    for (int j = 1; j <= 3; ++j)
      if (r.ratioCount[j] > 0)
        std::printf("  j%d: %.3g (%.3g/m, %ld)", j, std::exp(r.logRatio[j] / double(r.ratioCount[j])),
                    std::exp(r.logQuad[j] / double(r.ratioCount[j])), r.ratioCount[j]);
    std::printf("  %s\n", r.failure.empty() ? "ok" : r.failure.c_str());
    std::fflush(stdout);
  }
}

}  // namespace

double percentile99(std::vector<double> v) {
  const auto p = v.begin() + long(0.99 * double(v.size() - 1));
  std::nth_element(v.begin(), p, v.end());
  return *p;
}

// The soak (issue 16 test list, benchmark only): the `ladder` scene of `n` links (or the `chain` scene of n rods)
// with every scene default (ladder_peer_scene.h: rigid rods, ε = 1e-10, τ = 2h, max_chord 1e-4 m, max_relinearise 4,
// block solver, carried joint forces) for `seconds` of simulated time, stepped as the app steps it.
// Prints every 10 s: t, max gap so far, RMS now, max RMS so far, E − E(0), SPOOK solves per step (mean over the
// interval, max so far), CPU ms/step (interval mean, p99 so far). Returns 3 on divergence (a thrown
// DivergenceError or a non-finite state), 4 if the energy ever rose above E(0), 0 otherwise.
int soak(double seconds, int n, bool isChain) {
  const char* kind = isChain ? "chain" : "ladder";
  bench::RodScenePeer ours(kind, n);
  const RodSystem& sys = ours.scene->system();
  const double h = ours.h, E0 = ours.diagnostics().energy;
  double maxGap = 0, maxRms = 0, meanRms = 0, maxExcess = -1e300, maxUnit = 0, maxSpeed = 0, cpu = 0, cpuBlock = 0;
  long solvesBlock = 0, solves = 0;
  double p99 = 0;
  int maxSolves = 1;
  std::vector<double> stepMs;
  const long steps = std::lround(seconds / h), every = std::max(1L, std::lround(10.0 / h));
  std::printf("soak: %s scene N = %d (%zu rods), the scene's defaults (%s), %.0f s\n     t  max gap so far  RMS now  "
              "max RMS so far  max E-E0 so far  E-E0 now   solves mean/max  ms/step (last 10 s, p99 so far)  v max\n",
              kind, n, sys.bodies().size(), ours.setting().c_str(), seconds);
  std::fflush(stdout);
  for (long k = 0; k < steps; ++k) {
    const std::clock_t c0 = std::clock();
    try {
      ours.step();
    } catch (const std::exception& e) {
      std::printf("soak: DIVERGED at t = %.2f s: %s\n", ours.scene->time(), e.what());
      return 3;
    }
    const double ms = double(std::clock() - c0) / CLOCKS_PER_SEC * 1000.0;
    cpu += ms, cpuBlock += ms;
    stepMs.push_back(ms);
    maxSolves = std::max(maxSolves, ours.scene->lastSolves());
    solvesBlock += ours.scene->lastSolves();
    const RodDiagnostics d = ours.diagnostics();
    if (!std::isfinite(d.energy) || !std::isfinite(d.constraintMax)) {
      std::printf("soak: DIVERGED at t = %.2f s: non-finite state\n", ours.scene->time());
      return 3;
    }
    maxGap = std::max(maxGap, d.constraintMax);
    maxRms = std::max(maxRms, d.constraintRms);
    meanRms += d.constraintRms / double(steps);
    maxExcess = std::max(maxExcess, d.energy - E0);
    maxUnit = std::max(maxUnit, d.unitMax);
    maxSpeed = std::max(maxSpeed, d.maxSpeed);
    if ((k + 1) % every == 0 || k + 1 == steps) {
      const long count = (k % every) + 1;
      p99 = percentile99(stepMs);
      std::printf("%6.0f  %14.3g  %7.3g  %14.3g  %15.4g  %9.4g  %7.2f / %3d  %15.2f  %13.2f  %6.4g\n", ours.scene->time(),
                  maxGap, d.constraintRms, maxRms, maxExcess, d.energy - E0, double(solvesBlock) / double(count),
                  maxSolves, cpuBlock / double(count), p99, d.maxSpeed);
      std::fflush(stdout);
      solves += solvesBlock, cpuBlock = 0, solvesBlock = 0;
    }
  }
  std::printf("soak %s N = %d, %.0f s: no divergence; max gap %.3g m, max RMS %.3g m, mean RMS %.3g m, max E - E0 %.4g J, "
              "max |u.u-1|/2 %.3g, peak speed %.4g m/s, %.2f SPOOK solves per step (max %d), %.2f ms CPU per step "
              "(p99 %.2f)\n",
              kind, n, ours.scene->time(), maxGap, maxRms, meanRms, maxExcess, maxUnit, maxSpeed,
              double(solves) / double(steps), maxSolves, cpu / double(steps), p99);
  return maxExcess > 0 ? 4 : 0;
}

int main(int argc, char** argv) {
  if (argc >= 7 && argc <= 10 && std::strcmp(argv[1], "--relin") == 0) {
    const int only = argc >= 9 ? argv[8][0] - 'a' : -1;
    const double chord = argc == 10 ? std::atof(argv[9]) : kSceneMaxChord;
    const double T = std::atof(argv[2]), eps = std::atof(argv[5]);
    const double reach = argc >= 8 ? std::atof(argv[7]) : RigidRodSpook::kRelineariseReach;
    const int n = std::atoi(argv[4]), K = std::atoi(argv[6]);
    if (!(T > 0) || n < 1 || !(eps >= 0) || K < 0 || K > RigidRodSpook::kMaxRelinearise || !(reach >= 1) ||
        (argc >= 9 && (only < 0 || only > 2 || argv[8][1] != 0)) || !(chord > 0)) {
      std::fprintf(stderr, "usage: bench_ladder_robust --relin T ladder|chain N EPS K [REACH [a|b|c [CHORD]]] (T > 0, "
                           "N >= 1, EPS >= 0, K in [0, 16], REACH >= 1; a|b|c: that variant only; CHORD > 0: max_chord, m)\n");
      return 2;
    }
    std::printf("rigid rods, max_chord %g m, h = 1/60, tau = 2h, %g s; gap10: max gap over the first 10 s; cpu ms/step; "
                "eps|f|: the joints' compliance gap; contraction per re-linearisation j: "
                "mean miss_j/miss_j-1 (miss_j/miss_j-1^2, count)\n"
                "kind       N   eps  K variant      reached   max gap     gap10   max RMS  mean RMS eps|f|max   max E-E0     cpu  cpu "
                "p99  subs solves max redo\n",
                chord, T);
    std::printf("reach %g (iterate only sub-steps whose plain solve missed at most reach x max_chord)\n", reach);
    printRelinearise(argv[3], n, T, eps, K, reach, only, chord);
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "--soak") == 0) {
    const double seconds = argc > 2 ? std::atof(argv[2]) : 300.0;
    const bool isChain = argc > 4 && std::strcmp(argv[3], "--chain") == 0;
    const bool sized = argc == 5 && (isChain || std::strcmp(argv[3], "--links") == 0);
    const int n = sized ? std::atoi(argv[4]) : 1000;
    if (!(seconds > 0) || n < 1 || (argc > 3 && !sized)) {
      std::fprintf(stderr, "usage: bench_ladder_robust --soak SECONDS [--links N | --chain N] (SECONDS > 0, N >= 1)\n");
      return 2;
    }
    try {
      return soak(seconds, n, isChain);
    } catch (const std::exception& e) {  // a size outside the scene's range (BadInput)
      std::fprintf(stderr, "bench_ladder_robust: %s\n", e.what());
      return 2;
    }
  }
  const double T = argc > 1 ? std::atof(argv[1]) : 60.0;
  std::printf("SPOOK rod models, h = 1/60, eps = 1e-8, tau = 2h, %g s (gaps in m, energy in J, speed in m/s, cpu ms/step)\n"
              "eps|f|: the joints' compliance gap, max and max-over-time RMS (rigid models)\n"
              "kind       N model     reached   max gap   max RMS  mean RMS  eps|f|max eps|f|rms  max E-E0   max unit  v max"
              "     cpu  cpu p99  subs solves redo  result\n",
              T);
  if (argc > 3 && std::atoi(argv[3]) > 0) {
    printCase(argv[2], std::atoi(argv[3]), T, argc > 4 ? std::atof(argv[4]) : 0.0, argc > 5 ? std::atof(argv[5]) : 0.0,
              argc > 6 && std::strcmp(argv[6], "rigid") == 0);
    return 0;
  }
  const double maxChord = argc > 2 ? std::atof(argv[2]) : kSceneMaxChord, maxTurn = argc > 3 ? std::atof(argv[3]) : 0.0;
  for (int n : {20, 150, 300, 1000}) printCase("ladder", n, T, maxChord, maxTurn);
  for (int n : {20, 50, 200, 1000}) printCase("chain", n, T, maxChord, maxTurn);
  return 0;
}
