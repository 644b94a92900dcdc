// study/study_aggregate.h — the integrator study's results reduced per (method,
// h) cell over the runs (geometric means over the runs that did not blow up),
// the least-squares log-log slope and the cost at equal error. Shared by the
// headless summary (study_runner.h) and the app's study panel, so both show the
// same numbers.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "study/integrator_study.h"

namespace varsim::study {

// One (method, h) cell over the runs.
struct StudyCell {
  std::string method;
  double h = 0;
  int ok = 0, blowups = 0;  // runs that finished / blew up
  // Geometric means over the `ok` runs (0 when ok == 0): position (m), rotation or heading (rad), pose = pos + rot.
  double pos = 0, rot = 0, pose = 0;
  double energy = 0, momentum = 0, newton = 0;  // arithmetic means over the `ok` runs
  double cpuMs = 0;                             // mean CPU ms per run over all runs
  double firstBlowupHw = INFINITY;              // smallest h |omega| among the runs that blew up
  long steps = 0;                               // duration / h
};

// Cells in problem order (methods outer, steps inner); a cell without any
// result has ok == blowups == 0.
std::vector<StudyCell> aggregateStudy(const StudyProblem& problem, const std::vector<RunResult>& results);

// Least-squares slope of log y against log x (the observed order when x = h).
double logLogSlope(const std::vector<double>& x, const std::vector<double>& y);

// CPU time (ms per run) at which `method`'s mean pose error reaches `target`,
// interpolated log-log between the two steps that bracket it (only steps where
// no run blew up); NaN if the curve does not reach the target.
double costAtError(const std::vector<StudyCell>& cells, const std::string& method, double target);

}  // namespace varsim::study
