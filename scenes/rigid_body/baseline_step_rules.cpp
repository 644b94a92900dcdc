// scenes/rigid_body/baseline_step_rules.cpp — see the header. Measured (rigid_body, default body, dt 1/60 s, 20 s):
// RK4 spinning about axis 3 (omega constant) ran at h|omega| = 2.82 and diverged at 2.84 (step 661) and 2.87 (step
// 187); RK2 about axis 3 with velocity 1000,0,0 (the translational energy, growing as predicted, dominates) ran at
// h|omega| = 0.11 (predicted growth 4.5 %) and was flagged at 0.115 (5.4 %, at 19.8 s) and 0.12 (6.4 %, at 16.8 s).
#include "scenes/rigid_body/baseline_step_rules.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/sim/energy_monitor.h"
#include "engine/sim/errors.h"

namespace varsim {
namespace {

std::string fourDigits(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return formatNumber(std::strtod(buf, nullptr));
}

// The largest h (bisection; the growth rises with h at fixed w) whose predicted RK2 growth fits the tolerance.
double largestRk2Step(double w, double tolerance) {
  double lo = 0.0, hi = 10.0;
  for (int k = 0; k < 80; ++k) {
    const double mid = 0.5 * (lo + hi);
    (rk2PredictedGrowth(mid, w) <= tolerance ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

double largestSpinRate(const Eigen::Vector3d& J, const Eigen::Vector3d& omega) {
  const Eigen::Vector3d x = omega.cwiseAbs2();
  const double twoT = J.dot(x), L2 = J.cwiseAbs2().dot(x);
  double best = x.sum();
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j) {
      // x_i, x_j on the segment's end with the third x zero: J_i x_i + J_j x_j = 2T, J_i^2 x_i + J_j^2 x_j = |L|^2.
      const double det = J[i] * J[j] * (J[j] - J[i]);
      if (std::abs(det) <= 1e-12 * J[i] * J[j] * std::max(J[i], J[j])) continue;  // equal moments: no vertex
      const double xi = (twoT * J[j] * J[j] - L2 * J[j]) / det, xj = (L2 * J[i] - twoT * J[i] * J[i]) / det;
      if (xi >= 0.0 && xj >= 0.0) best = std::max(best, xi + xj);
    }
  return std::sqrt(best);
}

double rk2PredictedGrowth(double h, double w) {
  const double z = h * w, perStep = std::log1p(0.25 * z * z * z * z);
  if (perStep == 0.0) return 0.0;  // also for h so small that horizon / h overflows
  return std::expm1(std::min(700.0, kRk2Horizon / h * perStep));
}

void checkRigidBaselineSpin(const ParamSet& p) {
  const std::string& integrator = p.choice("integrator");
  if (integrator != "rk2" && integrator != "rk4") return;
  const double h = p.real("dt"), w = largestSpinRate(p.vec3("inertia"), p.vec3("omega"));
  const std::string start = "integrator = " + integrator + ", dt = " + fourDigits(h) + " s, omega = " +
                            p.valueText("omega") + " (the motion reaches |omega| = " + fourDigits(w) + " rad/s)";
  if (integrator == "rk4") {
    if (h * w <= kRk4SpinBound) return;
    throw BadInput("key 'omega' with " + start + ": h |omega| = " + fourDigits(h * w) +
                   " rad is beyond explicit RK4's stability bound " + formatNumber(kRk4SpinBound) +
                   " on a rotation (the body-frame velocity grows each step); allowed here dt <= " +
                   fourDigits(kRk4SpinBound / w) + " s, or |omega| <= " + fourDigits(kRk4SpinBound / h) +
                   " rad/s, or integrator = lgvi, rk2i or newmark");
  }
  const double tolerance = EnergyMonitor::kRelativeTolerance, growth = rk2PredictedGrowth(h, w);
  if (growth <= tolerance) return;
  const double zMax = std::pow(4.0 * std::expm1(std::log1p(tolerance) * h / kRk2Horizon), 0.25);
  throw BadInput("key 'omega' with " + start + ": explicit RK2 gains energy at every spin, by (1 + (h |omega|)^4/4) " +
                 "per step; over " + formatNumber(kRk2Horizon) + " s that is " + fourDigits(100.0 * growth) +
                 " %, beyond the energy monitor's " + formatNumber(100.0 * tolerance) + " %; allowed here dt <= " +
                 fourDigits(largestRk2Step(w, tolerance)) + " s, or |omega| <= " + fourDigits(zMax / h) +
                 " rad/s, or integrator = lgvi, rk2i or newmark");
}

}  // namespace varsim
