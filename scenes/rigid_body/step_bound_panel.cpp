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
                          bool lgvi) {
  ScenePanel p;
  p.title = "Step bound (seed 002)";
  p.header = stepBoundWidgets(J, omega, h, newtonIterations, tangent, lgvi);
  return p;
}

std::vector<PanelWidget> stepBoundWidgets(const Matrix3d& J, const Vector3d& omega, double h, int newtonIterations,
                                          Tangent tangent, bool lgvi) {
  using stepbounds::Scheme;
  const double kappa = stepbounds::conditionNumber(J), w = omega.norm();
  const double tln = stepbounds::bound(Scheme::Tln, kappa, w), cay = stepbounds::bound(Scheme::Cayley, kappa, w);
  const bool hasBound = lgvi && (tangent == Tangent::Tln || tangent == Tangent::Cay);
  const double active = tangent == Tangent::Tln ? tln : cay;
  std::vector<PanelWidget> out;
  char line[160];
  if (hasBound && h > active) {
    std::snprintf(line, sizeof line, "h = %.4g s exceeds h_bar = %.4g s of eq. (%s): Newton may fail (not clamped)", h,
                  active, tangent == Tangent::Tln ? "19" : "20");
    out.push_back(PanelWidget::warning(line));
  }
  std::snprintf(line, sizeof line, "h = %.4g s   Newton %d   kappa = %.4g   |omega| = %.4g rad/s", h,
                lgvi ? newtonIterations : 0, kappa, w);
  out.push_back(PanelWidget::text(line));
  const auto tone = [&](Tangent t, double b) {
    return !(lgvi && tangent == t) ? PanelTone::Dim : h > b ? PanelTone::Warn : PanelTone::Ok;
  };
  out.push_back(PanelWidget::text("h_bar TLN (19): " + seconds(tln), tone(Tangent::Tln, tln))
                    .tip("4 / ((kappa - 1) |omega|): Jacobian (17) positive definite below it"));
  out.push_back(PanelWidget::text("h_bar Cayley (20): " + seconds(cay), tone(Tangent::Cay, cay))
                    .tip("unrestricted for kappa <= 4 sqrt(7) - 7 = 3.58; conservative (ERRATA: its derivation "
                         "is not valid, never violated in bench_rigid_step_bounds)"));
  if (!hasBound)
    out.push_back(PanelWidget::text(lgvi ? "active C map has no bound in seed 002 (only TLN and Cayley)"
                                         : "RK4 baseline: explicit, no Newton solve",
                                    PanelTone::Dim));
  return out;
}

}  // namespace varsim
