// scenes/tree/pendulum_step_rule.cpp — the measured step tables of pendulum_step_rule.h. Sweep: links N = 1, 2, 3, 5,
// 10, 19, 40 x theta0 = 0.01, 0.1, 0.5, 1.5, 3 rad x release every_joint / first_joint x dt = 0.001, 0.002, 0.005,
// 0.01, 0.02, 0.05 s at length 0.5 m and gravity 9.81 m/s^2 (dt sqrt(g/l) = 0.0044 ... 0.221), 5 s each with the
// step rule off. The chain's motion depends on dt only through dt sqrt(g/l) (the mass scales out; length and gravity
// set the time unit), so the tables hold in that scaled step for every length and gravity.
#include "scenes/tree/pendulum_step_rule.h"

#include <cmath>
#include <utility>

namespace varsim {
namespace {

constexpr double kAngles[5] = {0.01, 0.1, 0.5, 1.5, 3.0};
constexpr double kSteps[6] = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05};  // s, at length 0.5 m and gravity 9.81

// Rows: links; per angle a group of six characters, one per swept step (smallest first): 1 ran, 0 failed, t not
// measured (a 5 s run took more than 15 s wall), - not run (the sweep stopped there). Only 1 is accepted.
// RK4: 387 of 420 ran; the 33 failures went non-finite (0.3-2.6 s in) or gained energy: the explicit scheme's
// stability bound shrinks with the chain's fastest whip (long chains curled at every joint need the small steps).
constexpr const char* kRk4Every[7] = {"111111 111111 111111 111111 111111", "111111 111111 111111 111111 111111",
                                      "111111 111111 111111 111111 111111", "111111 111111 111111 111110 111110",
                                      "111111 111111 111110 111110 111110", "111111 111111 111000 111100 111100",
                                      "111111 111110 110000 111000 111000"};
constexpr const char* kRk4First[7] = {"111111 111111 111111 111111 111111", "111111 111111 111111 111111 111111",
                                      "111111 111111 111111 111111 111111", "111111 111111 111111 111111 111110",
                                      "111111 111111 111111 111111 111100", "111111 111111 111111 111110 111100",
                                      "111111 111111 111111 111110 111000"};
// Trapezoidal VI: 308 ran, 14 failed (all by an energy flag: runaway energy at 5-19 links released at 1.5 or 3 rad,
// dt sqrt(g/l) 0.022-0.089, while 0.221 ran), 48 slower than 15 s (19 and 40 links at the small steps, 60-100 ms per
// step at 40 links), 50 not run (40 links).
constexpr const char* kTrapEvery[7] = {"111111 111111 111111 111111 111111", "111111 111111 111111 111111 111111",
                                       "111111 111111 111111 111111 111111", "111111 111111 111111 111111 111111",
                                       "111111 111111 111111 110001 110001", "ttt111 tttt11 tttt11 tttt01 tttt01",
                                       "tttttt ------ ------ ------ ------"};
constexpr const char* kTrapFirst[7] = {"111111 111111 111111 111111 111111", "111111 111111 111111 111111 111111",
                                       "111111 111111 111111 111111 111111", "111111 111111 111111 111111 111001",
                                       "111111 111111 111111 111111 110001", "tttt11 tttt11 tttt11 tttt11 ttt011",
                                       "--tttt ------ ------ ------ ------"};

// The first-order midpoint VIs, alpha = 0 and 1: the same links and steps, angles kFirstOrderAngles (the default
// release 0.8 among them), 20 s each with the first-order rule off (scripts/range_pendulum_sweep.py). 1008 runs:
// 595 ran, 313 failed (an energy flag, most then a Newton failure also in 64 sub-steps), 100 not run ('-': refused
// by the curled rule). A step is accepted where it and every smaller swept step ran: 15 runs that ran above a
// failed smaller step (alpha 1: 3 links at 1.5 rad failed at dt 0.01 and ran at 0.02) are chaotic escapes, not a
// margin.
constexpr double kFirstOrderAngles[6] = {0.1, 0.5, 0.8, 1.5, 2.0, 3.0};
constexpr const char* kAlpha0Every[7] = {"111111 111111 111111 111111 111110 111110",
                                         "111111 111111 111111 111100 111100 11110-",
                                         "111111 11111- 11110- 11100- 11100- 11100-",
                                         "111111 11110- 11000- 11000- 11000- 11000-",
                                         "11111- 10000- 11000- 11000- 11000- 11000-",
                                         "11100- 10000- 10000- 10000- 10000- 00000-",
                                         "00000- 00000- 00000- 00000- 00000- 00000-"};
constexpr const char* kAlpha0First[7] = {"111111 111111 111111 111111 111110 111110",
                                         "111111 111111 111111 111100 111100 11100-",
                                         "111111 111111 111111 11110- 11100- 11000-",
                                         "111111 111111 111111 11100- 11000- 11000-",
                                         "111111 111110 11111- 11000- 11000- 00000-",
                                         "111111 11110- 11100- 10000- 00000- 00000-",
                                         "111110 11100- 11000- 00000- 00000- 00000-"};
constexpr const char* kAlpha1Every[7] = {"111111 111111 111111 111110 111110 111110",
                                         "111111 111111 111111 111110 111111 11111-",
                                         "111111 11111- 11110- 11101- 11101- 11101-",
                                         "111111 11110- 11000- 11000- 11001- 11101-",
                                         "11111- 11000- 10000- 11001- 11010- 10001-",
                                         "11100- 10000- 10000- 10001- 10000- 00000-",
                                         "00000- 00000- 00000- 00000- 00000- 00000-"};
constexpr const char* kAlpha1First[7] = {"111111 111111 111111 111110 111110 111110",
                                         "111111 111111 111111 111100 111110 11101-",
                                         "111111 111111 111111 11111- 11101- 11001-",
                                         "111111 111111 111111 11001- 11001- 10000-",
                                         "111111 111111 11111- 11000- 10000- 10001-",
                                         "111111 11111- 11110- 11000- 10000- 00000-",
                                         "111111 11100- 11000- 00000- 00000- 00000-"};

double scaledSweptStep(int d) { return kSteps[d] * std::sqrt(9.81 / 0.5); }

// The swept values next to v in grid[0..k): [lo, hi] (equal on a swept value; the first below it); {-1, -1} beyond
// the last.
std::pair<int, int> bracket(const double* grid, int k, double v, double tolerance = 0.0) {
  if (v <= grid[0] * (1.0 + tolerance)) return {0, 0};
  for (int i = 1; i < k; ++i) {
    if (std::abs(v - grid[i]) <= tolerance * grid[i]) return {i, i};
    if (v < grid[i]) return {i - 1, i};
  }
  return {-1, -1};
}

// One measured table: rows per kLinks, per angle of `angles` a group of six marks (one per kSteps).
struct StepTable {
  const char* const* rows;
  const double* angles;
  int angleCount;
};

// True if every swept case of `t` around (links, |theta0|, scaled step) is marked 1 (see sweptStepRan).
bool tableRan(const StepTable& t, int links, double theta0, double scaledStep) {
  double scaled[6];
  for (int d = 0; d < 6; ++d) scaled[d] = scaledSweptStep(d);
  constexpr double kLinkValues[7] = {1, 2, 3, 5, 10, 19, 40};
  const auto [n0, n1] = bracket(kLinkValues, 7, double(links));
  const auto [a0, a1] = bracket(t.angles, t.angleCount, std::abs(theta0));
  const auto [d0, d1] = bracket(scaled, 6, scaledStep, 1e-12);  // a swept dt at another length/gravity: round-off
  if (n0 < 0 || a0 < 0 || d0 < 0) return false;
  for (int n : {n0, n1})
    for (int a : {a0, a1})
      for (int d : {d0, d1})
        if (t.rows[n][7 * a + d] != '1') return false;
  return true;
}

StepTable firstOrderTable(double alpha, const std::string& release) {
  const bool every = release == "every_joint";
  return {alpha < 0.5 ? (every ? kAlpha0Every : kAlpha0First) : (every ? kAlpha1Every : kAlpha1First),
          kFirstOrderAngles, 6};
}

}  // namespace

bool sweptStepRan(const std::string& integrator, const std::string& release, int links, double theta0,
                  double scaledStep) {
  const bool every = release == "every_joint";
  const char* const* rows = integrator == "rk4"           ? (every ? kRk4Every : kRk4First)
                            : integrator == "trapezoidal" ? (every ? kTrapEvery : kTrapFirst)
                                                          : nullptr;
  return rows && tableRan({rows, kAngles, 5}, links, theta0, scaledStep);
}

double largestSweptStepRan(const std::string& integrator, const std::string& release, int links, double theta0,
                           double scaledStep) {
  for (int d = 5; d >= 0; --d)
    if (scaledSweptStep(d) <= scaledStep && sweptStepRan(integrator, release, links, theta0, scaledSweptStep(d)))
      return scaledSweptStep(d);
  return 0.0;
}

double firstOrderStepRanUpTo(double alpha, const std::string& release, int links, double theta0) {
  if (alpha == 0.5) return 0.0;
  double upTo = 0.0;
  for (int d = 0; d < 6 && tableRan(firstOrderTable(alpha, release), links, theta0, scaledSweptStep(d)); ++d)
    upTo = scaledSweptStep(d);
  return upTo;
}

}  // namespace varsim
