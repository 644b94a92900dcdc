// study/integrator_study.h — the problems of seed 000 Sec. 3.3's integrator
// comparisons (Figs. 3-5), each run through the same step functions the scenes
// use (FreeBodySim for rigid_body, carStepWith for car): a seeded random case,
// a ground truth by RK4 at a much smaller step, and per (method, h) the pose
// error (position and rotation separately), energy and momentum drift, Newton
// iterations, blow-up, CPU and wall time. study_runner.h runs them in parallel
// and writes the CSV and the table. A StudyControl lets an observer (the app's
// "Integrator study" panel) follow the progress and cancel from another thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace varsim::study {

// Deterministic uniform numbers from a fully specified engine (mt19937_64 bits
// -> [0, 1) with 53 bits), so a seed gives the same cases on every platform
// (std::uniform_real_distribution is implementation-defined).
class StudyRng {
 public:
  StudyRng(std::uint64_t seed, int run) : engine_(seed * 0x9E3779B97F4A7C15ULL + std::uint64_t(run) + 1) {}
  double uniform(double lo, double hi) { return lo + (hi - lo) * double(engine_() >> 11) * 0x1.0p-53; }

 private:
  std::mt19937_64 engine_;  // its output sequence is fixed by the C++ standard
};

// One (method, h, run) outcome. Errors are means over the checkpoints t = 1, 2,
// ..., T s (NaN when blown up).
struct RunResult {
  std::string method;
  double h = 0.0;
  int run = 0;
  long steps = 0;
  double hOmega = 0.0;         // h times the case's |omega_0| (rigid body) or |yaw
                               // rate| scale (car), the step measure
  bool blowup = false;         // SimulationDiverged: non-finite, overflow or Newton failure
  double blowupTime = 0.0;     // s, time of the failed step (0 if none)
  double posErr = 0.0;         // m, mean |x - x_true| over the checkpoints
  double rotErr = 0.0;         // rad, mean rotation angle to the truth (heading
                               // difference for the car)
  double energyDrift = 0.0;    // max |E - E0| / E0 over the checkpoints
  double momentumDrift = 0.0;  // max |L - L0| / |L0|, L = R J w the angular momentum about the
                               // centre of mass (world; rigid body only, NaN for the car)
  // body only, NaN for the car)
  double newtonPerStep = 0.0;  // mean Newton iterations per step
  double cpuSeconds = 0.0,
         wallSeconds = 0.0;  // of the method's run alone (truth excluded)
};

// A figure's problem: which system, which methods and steps, how long, how many
// runs by default.
struct StudyProblem {
  std::string figure;                // fig3 | fig4 | fig5 | fig5s
  std::string system;                // rigid_body | car | snakeboard
  std::vector<std::string> methods;  // names as the scenes' `integrator` choices
  std::vector<double> steps;         // h values (s), powers of 2 so every checkpoint is a node
  double duration = 0.0;             // s, a whole number
  int runs = 1;
  double truthStep = 0.0;  // s, RK4 ground-truth step
};

// Shared by a running study and whoever watches it: the step loops add their
// steps to stepsDone and check `cancel` every kStudyPollSteps steps (so a
// cancel is seen within a fraction of a millisecond of stepping), each finished
// (method, h, run) row bumps rowsDone and each finished case casesDone.
struct StudyControl {
  std::atomic<bool> cancel{false};
  std::atomic<long> stepsDone{0};  // integrator steps, truth included; a blown-up
                                   // method's remaining steps count as done
  std::atomic<int> rowsDone{0};
  std::atomic<int> casesDone{0};
};
constexpr long kStudyPollSteps = 256;

// Thrown out of a case's step loop when StudyControl::cancel is set.
struct StudyCancelled : std::runtime_error {
  StudyCancelled() : std::runtime_error("study cancelled") {}
};

// fig3: one rigid-body case at a large step (h = 0.25 s) for 60 s; fig4: 20
// rigid-body cases, 240 s (the paper's 4 minutes), h = 2^-1 ... 2^-7; fig5: 50
// car cases with sinusoidal steering, 60 s, h = 2^-1 ... 2^-7; fig5s: 50
// snakeboard cases driven by a random gait, 30 s, h = 2^-1 ... 2^-7
// (vehicle_study.h). Throws BadInput naming the allowed names.
StudyProblem problemFor(const std::string& figure);

// Steps one case takes: the truth plus every (method, h); the progress unit.
long caseSteps(const StudyProblem& problem);

// All (method, h) results of one run (random case `run` of `seed`), in problem
// order (methods outer, steps inner), appended to `out` as each finishes. With
// a control: progress is counted and StudyCancelled thrown on a cancel (`out`
// keeps the rows finished before it).
void runCase(const StudyProblem& problem, std::uint64_t seed, int run, std::vector<RunResult>& out,
             StudyControl* control);
std::vector<RunResult> runCase(const StudyProblem& problem, std::uint64_t seed, int run);

// fig3's orbits (rigid body): every node of every method at step h, and the
// truth ("truth", RK4 at the problem's truth step) at the same times, up to the
// node before a blow-up. Values per node in orbitColumns() order.
struct Orbit {
  std::string method;
  std::vector<double> t;                    // s
  std::vector<std::vector<double>> values;  // [node][column]
  bool blowup = false;                      // ended early: SimulationDiverged
};
const std::vector<std::string>& orbitColumns();  // omega_x,omega_y,omega_z,x,y,z,qw,qx,qy,qz,energy,L
std::vector<Orbit> orbits(const StudyProblem& problem, std::uint64_t seed, int run, double h,
                          StudyControl* control = nullptr);
// The same as CSV rows "method,t,<orbitColumns>" (one header line first).
std::vector<std::string> orbitRows(const StudyProblem& problem, std::uint64_t seed, int run, double h);
std::vector<std::string> orbitCsvRows(const std::vector<Orbit>& orbits);

}  // namespace varsim::study
