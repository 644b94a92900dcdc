// study/vehicle_study.h — the integrator study's vehicle problems (seed 000 Sec. 5.2): fig5, the car with
// sinusoidal steering (the paper's Fig. 5), and fig5s, the snakeboard driven by a random gait (no figure in the
// paper; the same comparison), each method run through the scenes' own step (carStepWith, snakeboardStepWith)
// against an RK4 truth at a much smaller step. Used by integrator_study.cpp's runCase.
#pragma once

#include <cstdint>
#include <vector>

#include "study/integrator_study.h"

namespace varsim::study {

// Append one row per (method, h) of case `run` to `results` (see runCase).
void carRun(const StudyProblem& p, std::uint64_t seed, int run, std::vector<RunResult>& results, StudyControl* control);
void snakeboardRun(const StudyProblem& p, std::uint64_t seed, int run, std::vector<RunResult>& results,
                   StudyControl* control);

}  // namespace varsim::study
