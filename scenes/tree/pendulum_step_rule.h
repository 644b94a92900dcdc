// scenes/tree/pendulum_step_rule.h — the pendulum steps a sweep measured: for the trapezoidal VI and RK4 (5 s runs)
// and the first-order midpoint VIs alpha = 0 and 1 (20 s runs), which swept (links, release angle, release, step)
// ran sanely (exit 0, no energy flag) and which failed. The scene accepts a step the sweep ran or its rules accept
// (pendulum_scene.cpp), and refuses the rest.
#pragma once

#include <string>

namespace varsim {

// True if every swept case around (links, |theta0|, dt sqrt(gravity/length)) ran for `integrator` (trapezoidal,
// rk4) and `release` (every_joint, first_joint): on a swept value that case itself, between swept values both
// neighbours (in links, angle and step; below the smallest swept angle or step, the smallest). False beyond the sweep
// (|theta0| > 3, scaled step > 0.221) and for other integrators.
bool sweptStepRan(const std::string& integrator, const std::string& release, int links, double theta0,
                  double scaledStep);
// The largest swept scaled step <= scaledStep that sweptStepRan accepts; 0 if none.
double largestSweptStepRan(const std::string& integrator, const std::string& release, int links, double theta0,
                           double scaledStep);
// The first-order midpoint VI (alpha != 1/2): the largest swept scaled step up to which every swept step ran around
// (links, |theta0|) for `release` (0 if the smallest failed), on the alpha = 0 table for alpha < 1/2 and the alpha = 1
// table for alpha > 1/2 (the first-order error grows with |2 alpha - 1|: the ends are the worst case).
double firstOrderStepRanUpTo(double alpha, const std::string& release, int links, double theta0);

}  // namespace varsim
