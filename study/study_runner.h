// study/study_runner.h — `varsim study fig3|fig4|fig5|fig5s [--runs N] [--seed S]
// [--csv FILE] [--timings] [--threads K] [--duration T] [--methods LIST]
// [--hmax H] [--hmin H] [--h H]`: runs integrator_study.h's cases on
// std::threads (one task per random case), writes one CSV row per (method, h,
// run) sorted by (method, h, run) and prints the aggregated table, the observed
// orders, where each method first blew up, and the cost at equal error.
// Progress goes to stderr. Wall/CPU columns appear only with --timings, so two
// runs with the same seed give byte-identical CSVs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "study/integrator_study.h"

namespace varsim::study {

extern const char* const kStudyUsage;  // printed by `varsim study --help` and with a bad flag

struct StudyOptions {
  std::string figure;  // fig3 | fig4 | fig5 | fig5s
  int runs = -1;       // -1: the figure's default
  std::uint64_t seed = 1;
  double duration = -1.0;  // s, -1: the figure's default; a whole number of seconds
  double h = -1.0;         // fig3 only: the large step (s), a power of 2 in [2^-7, 1]
  std::string csvPath;
  bool timings = false;
  int threads = 0;  // 0: std::thread::hardware_concurrency()
  std::vector<std::string> methods;  // empty: all of the figure's; else a subset (kept in the figure's order)
  double hMax = -1.0, hMin = -1.0;   // s, -1: no bound; else one of the figure's steps (not fig3)
  int shard = 1, shards = 1;         // --shard I/N: only the cases (runs) r with r % N == I - 1
};

// Parses args (args[0] == "study"); throws BadInput naming the flag, the value
// and the allowed range.
StudyOptions parseStudyArgs(const std::vector<std::string>& args);

// The problem with the options applied (runs, duration).
StudyProblem configuredProblem(const StudyOptions& options);

// The results of a study that may have been cancelled: `cancelled` says the
// results hold only the rows finished before the cancel (a partial study).
struct StudyOutcome {
  std::vector<RunResult> results;
  bool cancelled = false;
};

// Every (method, h, run) result, sorted by (method order, h descending, run),
// counting progress into `control` and stopping early when its cancel flag is
// set (the command and the app's panel run this one function). Rethrows a
// failure (the ground truth diverging: SimulationDiverged).
StudyOutcome runStudy(const StudyProblem& problem, const StudyOptions& options, StudyControl& control,
                      bool progressOnStderr);
// The command's form: no cancel, progress on stderr.
std::vector<RunResult> runStudy(const StudyProblem& problem, const StudyOptions& options);

// CSV text of the results (header + rows, %.17g; timing columns only with
// `timings`).
std::string studyCsv(const std::vector<RunResult>& results, bool timings);
// What `--csv` writes: studyCsv, except fig3, whose file is the orbit of its one case (orbitRows).
std::string studyCsvFile(const StudyProblem& problem, const StudyOptions& options,
                         const std::vector<RunResult>& results);
// The aggregated table, orders, blow-ups and cost at equal error, as printed on
// stdout.
std::string studySummary(const StudyProblem& problem, const std::vector<RunResult>& results);

// The whole command; returns the exit code (0), throws BadInput (2) /
// SimulationDiverged (3).
int studyCommand(const std::vector<std::string>& args);

}  // namespace varsim::study
