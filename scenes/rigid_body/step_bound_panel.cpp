// scenes/rigid_body/step_bound_panel.cpp — builds the step-bound readout panel of the rigid-body scenes.
#include "scenes/rigid_body/step_bound_panel.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "engine/integrators/rigid_step_bounds.h"

namespace varsim {

namespace {

std::string seconds(double h) {
  if (!std::isfinite(h)) return "unrestricted";
  char b[40];
  std::snprintf(b, sizeof b, "%.4g s", h);
  return b;
}

}  // namespace

ScenePanel stepBoundPanel(const Matrix3d& J, const Vector3d& omega, double h, int newtonIterations, Tangent tangent,
                          const std::string& method) {
  ScenePanel p;
  p.title = "Step bound (seed 002)";
  p.header = stepBoundWidgets(J, omega, h, newtonIterations, tangent, method);
  return p;
}

std::vector<PanelWidget> stepBoundWidgets(const Matrix3d& J, const Vector3d& omega, double h, int newtonIterations,
                                          Tangent tangent, const std::string& method) {
  using stepbounds::Scheme;
  const bool lgvi = method == "lgvi";
  const double kappa = stepbounds::conditionNumber(J), w = omega.norm();
  const double tln = stepbounds::bound(Scheme::Tln, kappa, w), cay = stepbounds::bound(Scheme::Cayley, kappa, w);
  const bool hasBound = lgvi && (tangent == Tangent::Tln || tangent == Tangent::Cay);
  const double active = tangent == Tangent::Tln ? tln : cay;
  std::vector<PanelWidget> out;
  char line[200];
  if (hasBound && h > active) {
    std::snprintf(line, sizeof line, "step dt = %.4g s is above the largest safe step %.4g s: Newton may fail (not clamped)",
                  h, active);
    out.push_back(PanelWidget::warning(line).tip(tangent == Tangent::Tln ? "h_bar of seed 002 eq. (19)"
                                                                          : "h_bar of seed 002 eq. (20)"));
  }
  if (lgvi)
    std::snprintf(line, sizeof line, "integrator lgvi: dt = %.4g s, Newton %d iterations, |omega| = %.4g rad/s", h,
                  newtonIterations, w);
  else
    std::snprintf(line, sizeof line, "integrator %s: dt = %.4g s, |omega| = %.4g rad/s", method.c_str(), h, w);
  out.push_back(PanelWidget::text(line));
  std::snprintf(line, sizeof line, "inertia ratio kappa = %.4g", kappa);
  out.push_back(PanelWidget::text(line, PanelTone::Dim)
                    .tip("condition number of the body inertia J (largest / smallest principal moment)"));
  const auto tone = [&](Tangent t, double b) {
    return !(lgvi && tangent == t) ? PanelTone::Dim : h > b ? PanelTone::Warn : PanelTone::Ok;
  };
  // Plain names; the paper's symbols and equations in the tooltips.
  out.push_back(PanelWidget::text("largest safe step, tangent = tln: " + seconds(tln), tone(Tangent::Tln, tln))
                    .tip("h_bar of seed 002 eq. (19), 4 / ((kappa - 1) |omega|): the LGVI's Newton Jacobian (17) is "
                         "positive definite below it"));
  out.push_back(PanelWidget::text("largest safe step, tangent = cay: " + seconds(cay), tone(Tangent::Cay, cay))
                    .tip("h_bar of seed 002 eq. (20): unrestricted for kappa <= 4 sqrt(7) - 7 = 3.58; conservative "
                         "(ERRATA: its derivation is not valid, never violated in bench_rigid_step_bounds)"));
  if (!hasBound)
    out.push_back(PanelWidget::text(lgvi ? "the selected tangent map has no step limit in seed 002 (only tln and cay)"
                                         : "integrator " + method + " is a baseline: these limits are the LGVI's, "
                                           "shown for comparison",
                                    PanelTone::Dim));
  return out;
}

}  // namespace varsim
