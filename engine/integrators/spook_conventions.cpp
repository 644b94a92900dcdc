// (ε, τ, h) ⇄ spring/damper, ODE, MuJoCo, Box2D, and the measured stability region (see the header).
#include "engine/integrators/spook_conventions.h"

#include <cmath>
#include <cstdio>

#include "engine/sim/errors.h"

namespace varsim {

namespace {
constexpr double kPi = 3.14159265358979323846;

void requirePositive(const char* what, double v) {
  if (!(v > 0) || !std::isfinite(v)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    throw BadInput(std::string("SPOOK conventions: ") + what + " = " + buf + ": allowed (0, inf)");
  }
}
// ω and ζ of the spring-damper k = 1/ε, c = τ/ε on mass m.
void omegaZeta(const SpookParameters& p, double m, double& omega, double& zeta) {
  requirePositive("epsilon", p.epsilon);
  requirePositive("tau", p.tau);
  requirePositive("effective mass", m);
  omega = std::sqrt(1.0 / (p.epsilon * m));
  zeta = p.tau / (2.0 * std::sqrt(p.epsilon * m));
}
SpookParameters fromOmegaZeta(double omega, double zeta, double m) {
  requirePositive("omega", omega);
  requirePositive("damping ratio", zeta);
  requirePositive("effective mass", m);
  const double k = m * omega * omega, c = 2.0 * zeta * std::sqrt(k * m);
  return {1.0 / k, c / k};
}
}  // namespace

SpringDamper toSpringDamper(const SpookParameters& p) {
  requirePositive("epsilon", p.epsilon);
  requirePositive("tau", p.tau);
  return {1.0 / p.epsilon, p.tau / p.epsilon};
}

SpookParameters fromSpringDamper(const SpringDamper& s) {
  requirePositive("k", s.k);
  requirePositive("c", s.c);
  return {1.0 / s.k, s.c / s.k};
}

OdeErpCfm toOde(const SpookParameters& p, double h) {
  requirePositive("h", h);
  if (!(p.epsilon >= 0) || !(p.tau >= 0)) throw BadInput("SPOOK conventions: epsilon and tau must be >= 0");
  return {4.0 * h / (h + 4.0 * p.tau), 4.0 * p.epsilon / (h + 4.0 * p.tau)};
}

SpookParameters fromOde(const OdeErpCfm& o, double h) {
  requirePositive("h", h);
  requirePositive("ERP", o.erp);
  if (!(o.cfm >= 0)) throw BadInput("SPOOK conventions: CFM must be >= 0");
  // ERP = 4h/(h + 4τ) ⇒ τ = h(1/ERP − 1/4); CFM = 4ε/(h + 4τ) = ε ERP/h ⇒ ε = CFM h/ERP.
  return {o.cfm * h / o.erp, h * (1.0 / o.erp - 0.25)};
}

MujocoSolref toMujoco(const SpookParameters& p, double m) {
  double omega, zeta;
  omegaZeta(p, m, omega, zeta);
  return {1.0 / (zeta * omega), zeta};
}

SpookParameters fromMujoco(const MujocoSolref& s, double m) {
  requirePositive("timeconst", s.timeconst);
  requirePositive("dampratio", s.dampratio);
  return fromOmegaZeta(1.0 / (s.timeconst * s.dampratio), s.dampratio, m);
}

Box2dSoft toBox2d(const SpookParameters& p, double m) {
  double omega, zeta;
  omegaZeta(p, m, omega, zeta);
  return {omega / (2.0 * kPi), zeta};
}

SpookParameters fromBox2d(const Box2dSoft& b, double m) {
  requirePositive("hertz", b.hertz);
  return fromOmegaZeta(2.0 * kPi * b.hertz, b.zeta, m);
}

// Measured on the N = 20 ladder over 10 s (bench_ladder --stability prints the table): h ∈ {1/120,
// 1/60, 1/30, 1/20, 1/15, 1/10}, τ/h ∈ {0, 0.5, 1, 2, 4, 16}, ε ∈ {1e-12, 1e-8, 1e-5, 1e-3}. SPOOK
// never produced a non-finite state; the failures are energy growth above E(0) and unit-length rows
// losing their meaning (RMS of (u·u−1)/2 above 1):
//  • τ = 0: energy above E(0) at every h ≥ 1/60 with ε = 1e-12 (+96 J at h = 1/60), joint gaps 0.06 m;
//  • h ≤ 1/30, τ/h ≥ 0.5: no energy growth, unit RMS ≤ 0.78 for every ε;
//  • h = 1/20: energy growth for τ/h ≤ 1 (and τ/h = 2 with ε = 1e-12); fine for τ/h ≥ 4;
//  • h ≥ 1/15: unit RMS 1.1 … 34 for every τ, ε (rods stretched past recognition).
std::string spookStabilityWarning(const SpookParameters& p, double h, bool unitRows) {
  char buf[200];
  const double ratio = p.tau / h;
  const double slack = 1.0 + 1e-9;  // h = 1/30 typed as 0.0333… counts as 1/30
  if (!(h > 0) || !(p.epsilon >= 0) || !(p.tau >= 0)) return "h must be > 0 and epsilon, tau >= 0";
  if (unitRows && h > slack / 20.0) {
    std::snprintf(buf, sizeof buf, "h = %.4g s > 1/20 s: unit-length rows failed (RMS |u.u-1|/2 > 1) in every measured run", h);
    return buf;
  }
  if (ratio < 0.5) {
    std::snprintf(buf, sizeof buf,
                  "tau/h = %.3g < 0.5: constraint oscillations undamped (tau = 0 has spectral radius 1); energy rose above "
                  "E(0) in the measured runs", ratio);
    return buf;
  }
  // Rigid rods (stop 29, rigid block solver with the scenes' max_chord 1e-4 m and 4 re-linearisations): every run at
  // τ/h ≥ 0.5 kept E ≤ E(0) over 10 s for h = 1/120 … 1/10 and ε = 1e-12 … 1e-3, so the next bound is the director's.
  if (unitRows && h > slack / 30.0 && ratio < 4.0 && !(ratio >= 2.0 && p.epsilon >= 1e-8)) {
    std::snprintf(buf, sizeof buf,
                  "h = %.4g s > 1/30 s with tau/h = %.3g: energy rose above E(0) in the measured runs (needs tau >= 4h, "
                  "or >= 2h with epsilon >= 1e-8)", h, ratio);
    return buf;
  }
  return "";
}

}  // namespace varsim
