// SPOOK ladder benchmark (seed 001 Fig. 7): time per step vs N for both linear solvers, with the
// split into assembly / factorisation / solve / update, the factor fill and the log-log slope.
//   bench_ladder [--rigid]       the N sweep (N = 10 … 5000, 40 timed steps after 20 warm-up), three solvers;
//                                --rigid: the rigid-rod stepper (rigid_rod_spook.h) instead of the paper's
//   bench_ladder --solver        the linear solve alone, per solver (N = 100, 1000, 5000)
//   bench_ladder --speed         whole steps N = 100 … 5000, director and rigid rods: LDLᵀ, block on 1 and 2
//                                threads, slope, two-thread speed-up
//   bench_ladder --slope [rounds]  the rigid block 1-thread slope of --speed, `rounds` times (default 5): its spread
//   bench_ladder --cliff         rigid block 1 thread, CPU per step and per link for N = 500, 1000, … 5000
//   bench_ladder --step N [solver] [director|rigid] [steps] [threads]   one N (for perf record)
//   bench_ladder --stability [rigid]  the (h, τ/h, ε) sweep behind spookStabilityWarning (N = 20, 10 s)
//   bench_ladder --scene [maxN] [steps]  the ladder and chain scenes' whole step as `varsim run` does it over the
//                                fall (steps, default 600), split into solves, sub-step checks, diagnostics and
//                                bookkeeping, beside the same stepper alone; N = 100 … maxN (default 20 000)
//   bench_ladder --threads [maxN] [steps]  the same scenes at threads = 1 and 2 (alternated, wall per step, default
//                                120 steps): the crossover behind the scenes' automatic threads (rod_scene_params.h)
//   bench_ladder --soak [hours]  N = 100 for one simulated hour (default): NaN-free, violation bounded
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include <memory>

#include "engine/integrators/rigid_rod_model.h"
#include "engine/integrators/rigid_rod_spook.h"
#include "engine/integrators/constraint_jacobian.h"
#include "engine/integrators/spook.h"
#include "engine/solvers/block_tridiagonal_solver.h"
#include "engine/integrators/spook_conventions.h"
#include "engine/models/ladder.h"
#include "tests/bench/ladder_scene_timing.h"
#include "tests/log_log_slope.h"

using varsim::test::logLogSlope;

using namespace varsim;

namespace {

struct Timing {
  double assembly = 0, factor = 0, solve = 0, update = 0, step = 0, cpu = 0;
  double cpuMedian = 0, wallMedian = 0, wallMin = 0;  // per-step process CPU / wall time (robust to load bursts)
  long factorNnz = 0, matrixNnz = 0, unknowns = 0;
};

double processCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// Steps the falling ladder (the whiplash phase included) and averages the profile over timed steps.
Timing timeLadder(int N, SparseSolverKind solver, int warm, int timed, bool rigid = false, int threads = 1) {
  Ladder ladder(LadderConfig{N});
  std::unique_ptr<SpookStepper> director;
  std::unique_ptr<RigidRodSpook> rigidRods;
  SpookConfig config{solver, {}};
  config.threads = threads;
  if (rigid) rigidRods = std::make_unique<RigidRodSpook>(ladder.system(), config);
  else director = std::make_unique<SpookStepper>(ladder.system(), config);
  SpookStepper& spook = rigid ? rigidRods->spook() : *director;
  auto step = [&](MechanicalState& s, double h) { rigid ? rigidRods->step(s, h) : director->step(s, h); };
  MechanicalState s = ladder.system().initialState();
  const double h = 1.0 / 60;
  for (int k = 0; k < warm; ++k) step(s, h);
  Timing t;
  std::vector<double> cpus, walls;
  const std::clock_t cpuStart = std::clock();
  for (int k = 0; k < timed; ++k) {
    const double c0 = processCpuMs();
    const auto w0 = std::chrono::steady_clock::now();
    step(s, h);
    walls.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count());
    cpus.push_back(processCpuMs() - c0);
    const SpookProfile& p = spook.profile();
    t.assembly += p.assemblyUs / timed / 1000;
    t.factor += p.factorUs / timed / 1000;
    t.solve += p.solveUs / timed / 1000;
    t.update += p.updateUs / timed / 1000;
    t.step += p.stepUs / timed / 1000;
    t.factorNnz = p.factorNnz;
    t.matrixNnz = p.matrixNnz;
  }
  // Process CPU time: on our shared 2-core machines wall time is inflated by other jobs' load.
  t.cpu = double(std::clock() - cpuStart) / CLOCKS_PER_SEC * 1000.0 / timed;
  t.cpuMedian = median(cpus);
  t.wallMedian = median(walls);
  t.wallMin = *std::min_element(walls.begin(), walls.end());
  t.unknowns = ladder.system().coordinateCount() + spook.jacobian().rows();
  return t;
}

void sweep(bool rigid) {
  std::printf("SPOOK ladder (%s rods), h = 1/60, eps = 1e-8, tau = 2h: mean over 40 steps after 20 warm-up steps (ms per\n"
              "step; phases and step are wall time, cpu is process CPU time per step)\n",
              rigid ? "rigid" : "director");
  std::printf("%6s %8s | %-7s %8s %8s %8s %8s %8s %8s %10s %10s\n", "N", "unknowns", "solver", "assembly", "factor", "solve",
              "update", "step", "cpu", "K nnz", "factor nnz");
  std::vector<double> Ns, ldltSteps, umfSteps, blockSteps;
  for (int N : {10, 20, 50, 100, 200, 500, 1000, 2000, 5000}) {
    Timing rows[3];
    int i = 0;
    for (SparseSolverKind kind : {SparseSolverKind::Ldlt, SparseSolverKind::Umfpack, SparseSolverKind::Block}) {
      const Timing t = timeLadder(N, kind, 20, 40, rigid);
      rows[i++] = t;
      std::printf("%6d %8ld | %-7s %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %10ld %10ld\n", N, t.unknowns, sparseSolverName(kind),
                  t.assembly, t.factor, t.solve, t.update, t.step, t.cpu, t.matrixNnz, t.factorNnz);
    }
    std::printf("%6s %8s | step time ratios umfpack/ldlt %.1f, ldlt/block %.1f\n", "", "", rows[1].step / rows[0].step,
                rows[0].step / rows[2].step);
    Ns.push_back(N);
    ldltSteps.push_back(rows[0].cpu);
    umfSteps.push_back(rows[1].cpu);
    blockSteps.push_back(rows[2].cpu);
  }
  const std::vector<double> from100(Ns.begin() + 3, Ns.end()), block100(blockSteps.begin() + 3, blockSteps.end());
  std::printf("log-log slope of CPU time per step vs N = 10..5000: ldlt %.3f, umfpack %.3f, block %.3f (N = 100..5000: "
              "block %.3f; paper Fig. 7: linear = 1)\n",
              logLogSlope(Ns, ldltSteps), logLogSlope(Ns, umfSteps), logLogSlope(Ns, blockSteps),
              logLogSlope(from100, block100));
  std::printf("CPU per step: N = 1000 block %.2f ms, ldlt %.2f, umfpack %.2f; N = 5000 block %.2f ms (%s the 16.7 ms budget), "
              "ldlt %.2f\n",
              blockSteps[6], ldltSteps[6], umfSteps[6], blockSteps.back(), blockSteps.back() < 1000.0 / 60 ? "within" : "OVER",
              ldltSteps.back());
}

// The linear solve alone (factor + solve of one step's matrix, CPU time, mean over repeats) per
// solver, next to the rest of the step (assembly of J, r, t; the update and divergence check).
void solverOnly(bool rigid) {
  std::printf("SPOOK ladder matrix at t = 1 s (%s rods), CPU ms per factor + solve, mean of 50\n%6s %10s %10s %10s %10s\n",
              rigid ? "rigid" : "director", "N", "ldlt", "umfpack", "block",
              "block levels/max width, mean coupling corner r x c, body groups, dots into S");
  for (int N : {100, 1000, 5000}) {
    Ladder ladder(LadderConfig{N});
    SpookStepper spook(ladder.system());
    MechanicalState s = ladder.system().initialState();
    for (int k = 0; k < 60; ++k) spook.step(s, 1.0 / 60);  // the director pose; the rigid rods take its q
    const RigidRodModel twist(ladder.system());
    ConstraintJacobian jac(rigid ? static_cast<const ConstrainedModel&>(twist) : ladder.system());
    jac.evaluate(s.q, s.t);
    const Eigen::VectorXd D = Eigen::VectorXd::Constant(jac.rows(), 4e-8 / (9.0 / 3600));
    const Eigen::VectorXd r = Eigen::VectorXd::Ones(jac.matrix().cols()), t = Eigen::VectorXd::Ones(jac.rows());
    double ms[3];
    std::string shape;
    int i = 0;
    for (SparseSolverKind kind : {SparseSolverKind::Ldlt, SparseSolverKind::Umfpack, SparseSolverKind::Block}) {
      auto solver = makeSparseSolver(kind);
      Eigen::VectorXd x, y;
      solver->factor(ladder.system().massDiagonal(), jac.matrix(), D, jac.patternId(), nullptr);  // as SPOOK calls it
      const int reps = kind == SparseSolverKind::Umfpack ? 5 : 50;
      const std::clock_t c0 = std::clock();
      for (int k = 0; k < reps; ++k) {
        solver->factor(ladder.system().massDiagonal(), jac.matrix(), D, jac.patternId(), nullptr);
        solver->solve(r, t, x, y);
      }
      ms[i++] = double(std::clock() - c0) / CLOCKS_PER_SEC * 1000.0 / reps;
      if (auto* b = dynamic_cast<BlockTridiagonalSolver*>(solver.get())) {
        double rows = 0, cols = 0;
        for (const BlockLevel& lv : b->layout()->levels) rows += lv.recvRows, cols += lv.width - lv.sendCol;
        // Heap per level: the factor store, the analysis' tables, and the solver's vectors over rows and columns
        // (w; the base's copies of M and M⁻¹, the residual check's two row vectors; D and J's pattern are not copied
        // when the pattern is named by its id).
        const SparseMatrixD& J = jac.matrix();
        const double vectors = double(8 * (J.rows() + 2 * J.cols() + 2 * J.rows()));
        char buf[256];
        std::snprintf(buf, sizeof buf,
                      "%d/%d, coupling %.1f x %.1f, %ld groups in %ld level shapes, %ld dots (%.2f terms); "
                      "bytes per level: store %.0f, analysis %.0f, vectors %.0f",
                      b->levels(), b->maxLevelWidth(), rows / b->levels(), cols / b->levels(), b->layout()->groupCount,
                      long(b->layout()->homeShapes.size()), b->layout()->structuralPairs,
                      double(b->layout()->dotLength) / double(b->layout()->structuralPairs),
                      8.0 * b->layout()->storeSize / b->levels(), double(b->layout()->bytes()) / b->levels(),
                      vectors / b->levels());
        shape = buf;
      }
    }
    std::printf("%6d %10.3f %10.3f %10.3f  %s\n", N, ms[0], ms[1], ms[2], shape.c_str());
  }
}

// Whole steps of one N for profiling (perf record) and quick A/B:
//   bench_ladder --step N [solver] [director|rigid] [steps] [threads].
void stepOnly(int N, SparseSolverKind kind, bool rigid, int steps, int threads) {
  const Timing t = timeLadder(N, kind, 20, steps, rigid, threads);
  std::printf("N = %d %s rods, %s, %d thread(s): assembly %.3f factor %.3f solve %.3f update %.3f step %.3f ms wall, cpu %.3f ms per "
              "step (median cpu %.3f, wall median %.3f min %.3f)\n",
              N, rigid ? "rigid" : "director", sparseSolverName(kind), threads, t.assembly, t.factor, t.solve, t.update, t.step,
              t.cpu, t.cpuMedian, t.wallMedian, t.wallMin);
}

// The issue-16 speed table: whole steps per N for LDLᵀ and the block solver on 1 and 2 threads, in one run
// (ratios are against LDLᵀ in the same run: absolute times on the shared machine move with its load), for the
// paper's director rods and the rigid rods (the scenes' default; no sub-steps here, so every step is one SPOOK
// solve: 100 timed steps keep the rigid ladders inside the fall, before whiplash needs sub-steps).
void speedRows(bool rigid) {
  std::printf("%s rods\n%6s | %-18s | %-18s | %-18s | %11s %14s\n", rigid ? "rigid" : "director", "N", "ldlt cpu/wall",
              "block 1T cpu/wall", "block 2T cpu/wall", "ldlt/block", "2T speed-up");
  std::vector<double> Ns, cpu1;
  for (int N : {100, 500, 1000, 5000}) {
    const int timed = N >= 5000 ? 40 : N >= 1000 || rigid ? 100 : 200;
    const Timing l = timeLadder(N, SparseSolverKind::Ldlt, 20, timed, rigid);
    const Timing b1 = timeLadder(N, SparseSolverKind::Block, 20, timed, rigid, 1);
    const Timing b2 = timeLadder(N, SparseSolverKind::Block, 20, timed, rigid, 2);
    std::printf("%6d | %7.3f %10.3f | %7.3f %10.3f | %7.3f %10.3f | %11.2f %6.2f (min %.2f)\n", N, l.cpuMedian, l.wallMedian,
                b1.cpuMedian, b1.wallMedian, b2.cpuMedian, b2.wallMedian, l.cpuMedian / b1.cpuMedian,
                b1.wallMedian / b2.wallMedian, b1.wallMin / b2.wallMin);
    Ns.push_back(N);
    cpu1.push_back(b1.cpuMedian);
  }
  std::printf("block 1 thread: log-log slope of CPU per step N = 100..5000: %.3f (target <= 1.05); N = 1000 %.2f ms (target <= 2), "
              "N = 5000 %.2f ms (target <= 16.7)\n",
              logLogSlope(Ns, cpu1), cpu1[2], cpu1[3]);
}

double loadAverage() {
  double load = -1;
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &load) != 1) load = -1;
    std::fclose(f);
  }
  return load;
}

// The slope's spread: the rigid block 1-thread rows of --speed (same N, steps and timing) in `rounds` rounds back to
// back, each round's slope and then the median and range. One --speed run is one sample of a quantity that moves with
// the host: N = 5000 streams its ~36 MB working set through the L3 the machine's other tenants share, N <= 1000 fits.
void slopeRounds(int rounds) {
  std::printf("rigid rods, block solver, 1 thread: median process CPU ms per step (as --speed), %d rounds; load %.1f at start\n"
              "%6s | %8s %8s %8s %8s | %6s\n", rounds, loadAverage(), "round", "N=100", "500", "1000", "5000", "slope");
  const std::vector<double> Ns{100, 500, 1000, 5000};
  std::vector<double> slopes, perN[4];
  for (int round = 0; round < rounds; ++round) {
    std::vector<double> cpu;
    for (size_t i = 0; i < Ns.size(); ++i) {
      const int N = int(Ns[i]);
      cpu.push_back(timeLadder(N, SparseSolverKind::Block, 20, N >= 5000 ? 40 : 100, true, 1).cpuMedian);
      perN[i].push_back(cpu.back());
    }
    slopes.push_back(logLogSlope(Ns, cpu));
    std::printf("%6d | %8.3f %8.3f %8.3f %8.3f | %6.3f\n", round + 1, cpu[0], cpu[1], cpu[2], cpu[3], slopes.back());
  }
  std::printf("median | %8.3f %8.3f %8.3f %8.3f | %6.3f (min %.3f, max %.3f; target <= 1.05); load %.1f at end\n",
              median(perN[0]), median(perN[1]), median(perN[2]), median(perN[3]), median(slopes),
              *std::min_element(slopes.begin(), slopes.end()), *std::max_element(slopes.begin(), slopes.end()), loadAverage());
}

// Where the per-link cost leaves its flat part: rigid block 1 thread, N = 500 … 5000 (median CPU per step / N).
void cliff() {
  std::printf("rigid rods, block solver, 1 thread: median process CPU per step and per link; load %.1f\n%6s %10s %12s\n",
              loadAverage(), "N", "ms/step", "us/link");
  for (int N = 500; N <= 5000; N += 500) {
    const double ms = timeLadder(N, SparseSolverKind::Block, 20, N >= 5000 ? 40 : 100, true, 1).cpuMedian;
    std::printf("%6d %10.3f %12.3f\n", N, ms, 1000.0 * ms / N);
  }
}

void speedTable() {
  std::printf("SPOOK ladder, whole step (assembly + factor + solve + update), 20 warm-up steps; load average %.1f at start\n"
              "ms per step: median process CPU (both threads), median wall; 2T speed-up: median (min) wall 1T / 2T\n",
              loadAverage());
  speedRows(false);
  speedRows(true);
}

// The (h, τ/h, ε) sweep behind spookStabilityWarning (N = 20, 10 s, divergence limits off). `rigid`: the scenes'
// rigid rods with their sub-step and re-linearisation defaults (max_chord 1e-4 m, max_relinearise 4) instead of the
// paper's director rods with the row u·u = 1 (the rigid rods have no unit rows: their lengths are exact).
void stability(bool rigid) {
  std::printf("SPOOK stability on the N = 20 ladder (%s rods), 10 s, released horizontal (divergence limits off; see "
              "spook_conventions)\n", rigid ? "rigid" : "director");
  std::printf("%8s %6s %8s | %-8s %10s %12s %12s %12s\n", "h", "tau/h", "eps", "status", "t_end", "max gap rms", "max unit rms",
              "max E-E0");
  for (double hd : {120.0, 60.0, 30.0, 20.0, 15.0, 10.0})
    for (double th : {0.0, 0.5, 1.0, 2.0, 4.0, 16.0})
      for (double eps : {1e-12, 1e-8, 1e-5, 1e-3}) {
        const double h = 1.0 / hd;
        Ladder ladder(LadderConfig{20});
        DivergenceLimits limits;
        limits.maxViolation = 1e9;
        std::unique_ptr<SpookStepper> director;
        std::unique_ptr<RigidRodSpook> rigidRods;
        if (rigid) {
          rigidRods = std::make_unique<RigidRodSpook>(ladder.system(), SpookConfig{SparseSolverKind::Block, limits}, 0.0, 1e-4);
          rigidRods->setRelinearise(4);
        } else {
          director = std::make_unique<SpookStepper>(ladder.system(), SpookConfig{SparseSolverKind::Ldlt, limits});
        }
        (rigid ? rigidRods->spook() : *director).setAllRelaxation({eps, th * h, 0});
        MechanicalState s = ladder.system().initialState();
        const double E0 = ladder.initialEnergy();
        double gap = 0, unit = 0, rise = -1e300;
        const char* status = "ok";
        for (long k = 0; k < std::lround(10.0 / h); ++k) {
          try {
            if (rigid) rigidRods->step(s, h);
            else director->step(s, h);
          } catch (const std::exception&) {
            status = "DIVERGED";
            break;
          }
          const RodDiagnostics d = rodDiagnostics(ladder.system(), s);
          gap = std::max(gap, d.constraintRms);
          unit = std::max(unit, d.unitRms);
          rise = std::max(rise, d.energy - E0);
        }
        const std::string warn = spookStabilityWarning({eps, th * h}, h, !rigid);
        std::printf("1/%-6g %6g %8.0e | %-8s %10.2f %12.3g %12.3g %12.3g %s\n", hd, th, eps, status, s.t, gap, unit, rise,
                    warn.empty() ? "inside" : "warned");
      }
}

void soak(double hours) {
  const int N = 100;
  const double h = 1.0 / 60;
  Ladder ladder(LadderConfig{N});
  SpookStepper spook(ladder.system());
  MechanicalState s = ladder.system().initialState();
  const double E0 = ladder.initialEnergy();
  const long steps = std::lround(hours * 3600.0 / h);
  double maxRms = 0, maxGap = 0, maxUnit = 0, maxRise = -1e300, maxSpeed = 0, sumStep = 0, rmsLastHour = 0;
  long lastHourCount = 0;
  bool finite = true;
  const auto start = std::chrono::steady_clock::now();
  for (long k = 0; k < steps; ++k) {
    spook.step(s, h);
    sumStep += spook.profile().stepUs;
    const RodDiagnostics d = rodDiagnostics(ladder.system(), s);
    finite = finite && std::isfinite(d.energy) && s.q.allFinite() && s.v.allFinite();
    maxRms = std::max(maxRms, d.constraintRms);
    maxGap = std::max(maxGap, d.constraintMax);
    maxUnit = std::max(maxUnit, d.unitMax);
    maxRise = std::max(maxRise, d.energy - E0);
    maxSpeed = std::max(maxSpeed, d.maxSpeed);
    if (k >= steps - std::lround(600.0 / h)) rmsLastHour += d.constraintRms, ++lastHourCount;
    if ((k + 1) % std::lround(600.0 / h) == 0)
      std::printf("t = %6.0f s: E - E0 = %10.1f J, joint rms %.3g m, unit max %.3g, max speed %.3g m/s\n", s.t, d.energy - E0,
                  d.constraintRms, d.unitMax, d.maxSpeed);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("soak N = %d, %ld steps (%.0f s simulated) in %.0f s wall: %s; max joint rms %.3g m, max joint gap %.3g m, "
              "mean joint rms over the last 10 min %.3g m, max unit residual %.3g, max E - E0 %.3g J, max speed %.3g m/s, "
              "mean step %.3f ms\n",
              N, steps, s.t, wall, finite ? "no NaN" : "NaN FOUND", maxRms, maxGap, rmsLastHour / std::max(1L, lastHourCount),
              maxUnit, maxRise, maxSpeed, sumStep / steps / 1000);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--stability") == 0) stability(argc > 2 && std::strcmp(argv[2], "rigid") == 0);
  else if (argc > 1 && std::strcmp(argv[1], "--soak") == 0) soak(argc > 2 ? std::atof(argv[2]) : 1.0);
  else if (argc > 1 && std::strcmp(argv[1], "--solver") == 0) solverOnly(false), solverOnly(true);
  else if (argc > 1 && std::strcmp(argv[1], "--speed") == 0) speedTable();
  else if (argc > 1 && std::strcmp(argv[1], "--slope") == 0) slopeRounds(argc > 2 ? std::max(1, std::atoi(argv[2])) : 5);
  else if (argc > 1 && std::strcmp(argv[1], "--cliff") == 0) cliff();
  else if (argc > 1 && std::strcmp(argv[1], "--threads") == 0)
    bench::threadTable(argc > 2 ? std::atoi(argv[2]) : 20000, argc > 3 ? std::max(1, std::atoi(argv[3])) : 120);
  else if (argc > 1 && std::strcmp(argv[1], "--scene") == 0) bench::sceneTable(argc > 2 ? std::atoi(argv[2]) : 20000, argc > 3 ? std::max(1, std::atoi(argv[3])) : 600);
  else if (argc > 2 && std::strcmp(argv[1], "--step") == 0)
    stepOnly(std::atoi(argv[2]), parseSparseSolverKind(argc > 3 ? argv[3] : "block"), argc > 4 && std::strcmp(argv[4], "rigid") == 0,
             argc > 5 ? std::atoi(argv[5]) : 200, argc > 6 ? std::atoi(argv[6]) : 1);
  else sweep(argc > 1 && std::strcmp(argv[1], "--rigid") == 0);
  return 0;
}
