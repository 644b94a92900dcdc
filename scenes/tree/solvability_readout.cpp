// scenes/tree/solvability_readout.cpp — HUD text and panel widgets of the solvability monitor (see the header).
#include "scenes/tree/solvability_readout.h"

#include <cstdio>

namespace varsim {

namespace {

std::string number(double v) {
  if (v >= tree::StepBound::kNoLimit) return "none";  // no restriction found below kNoLimit
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

// A step in seconds, or "none" when the bound found no restriction.
std::string seconds(double v) { return v >= tree::StepBound::kNoLimit ? "none" : number(v) + " s"; }

PanelWidget row(const char* name, double value, const char* what) {
  return PanelWidget::text(std::string(name) + " = " + number(value) + "   " + what, PanelTone::Dim);
}

}  // namespace

void SolvabilityReadout::update(const tree::TreeTrapezoidal& s, const tree::TreeForcing& f) {
  bound_ = tree::trapezoidalStepBound(s.tree(), s.q(), s.v(), f);
}

std::string SolvabilityReadout::hudText() const { return "h_bar = " + seconds(hBar()); }

std::string SolvabilityReadout::hudWarning(double h) const {
  return h > hBar() ? "h > h_bar: Newton not guaranteed to converge (warning only)" : "";
}

ScenePanel SolvabilityReadout::panel(double h, int newtonIters) const {
  const tree::StepBound& b = bound_;
  ScenePanel p;
  p.title = "Solvability (seed 002 Sec. 4)";
  if (h > hBar())
    p.header.push_back(PanelWidget::warning("h = " + number(h) +
                                            " s exceeds the a-priori bound h_bar = " + seconds(hBar()) +
                                            ": Newton's convergence is not guaranteed (h is not clamped; the bound "
                                            "is sufficient, not necessary)"));
  p.header.push_back(PanelWidget::text("h = " + number(h) + " s   h_bar = " + seconds(hBar()) + "   Newton " +
                                           std::to_string(newtonIters) + " iterations",
                                       h > hBar() ? PanelTone::Warn : PanelTone::Ok));
  PanelWidget plot;
  plot.kind = PanelWidget::Kind::Plot;
  plot.label = "h_bar and h (s)";
  plot.trace = "solvability";
  plot.series = {"h_bar", "h"};
  plot.logScale = true;
  PanelTab bounds{
      "Bounds",
      {row("h_bar", hBar(), "s, min of the two below"), row("h Newton", b.hNewton, "s, psi (41): Newton-Kantorovich"),
       row("h Jacobian", b.hJacobian, "s, phi_k (38): De_k regular at every iterate"),
       row("h Prop. 1", b.hRegular, "s, (32) at v = v_k"), row("m1", b.local.m1, "(26) min eig M(q_k)"),
       row("m2", b.local.m2, "(26) max eig M(q_k)"), row("l0 = l1", b.local.l0, "(27)-(28) |grad M(q_k)|"),
       row("l2", b.local.l2, "(29) |grad^2 M(q_k)|"), row("l4", b.local.l4, "(30) max joint damping"),
       row("L0", b.L0, "(34) at h_bar"), row("L1", b.L1, "(35) at h_bar"),
       row("rho", b.rho, "radius of U (Newton ball in q) at h_bar")}};
  p.tabs = {{"h_bar over time", {plot}}, bounds};
  return p;
}

PanelSample SolvabilityReadout::sample(double h) const {
  return {"solvability", {"h_bar", "h"}, {std::min(hBar(), 1e3), h}, false};
}

}  // namespace varsim
