// What SPOOK's (ε, τ, h) mean in the conventions users arrive with, both ways:
//  • spring/damper: the continuous relaxed constraint ελ + g + τġ = 0 (seed 001 eqs. (15), (25))
//    is λ = −k g − c ġ with k = 1/ε, c = τ/ε. On an effective mass m (1 = "per unit mass"):
//    ω = √(k/m), ζ = c/(2√(k m)) = τ/(2√(ε m)).
//  • ODE (ERP, CFM): ODE solves J v_{k+1} + (CFM/h) λ = −(ERP/h) g (λ an impulse). Matching SPOOK's
//    row G v_{k+1} + Σλ = −(4/h)Υ g + Υ G v_k term by term gives CFM = hΣ = 4ε/(h + 4τ) and
//    ERP = 4Υ = 4h/(h + 4τ). ODE has no Υ G v_k term (it damps the old velocity differently), so the
//    same (ERP, CFM) is not the same stepper; ERP ≤ 1 needs τ ≥ 3h/4. (The ODE manual's spring
//    mapping ERP = hk/(hk + c), CFM = 1/(hk + c) is the τ-without-4 variant: k = 1/ε, c = τ/ε.)
//  • MuJoCo solref (timeconst, dampratio) with impedance 1: a_ref = −(2/tc) v − r/(tc dr)², i.e.
//    ζ = dampratio and ω = 1/(tc ζ).
//  • Box2D v3 soft constraints (hertz, ζ): ω = 2π hertz.
// Plus the region of (ε, τ, h) where SPOOK was measured stable on the ladder (bench_ladder --stability).
#pragma once
#include <string>

namespace varsim {

struct SpookParameters {
  double epsilon = 1e-8;  // compliance (m/N for a joint)
  double tau = 2.0 / 60;  // s
};
struct SpringDamper {
  double k = 0;  // N/m (per unit effective mass: 1/s²)
  double c = 0;  // N s/m (per unit effective mass: 1/s)
};
struct OdeErpCfm {
  double erp = 0, cfm = 0;
};
struct MujocoSolref {
  double timeconst = 0, dampratio = 0;
};
struct Box2dSoft {
  double hertz = 0, zeta = 0;
};

// All conversions need ε > 0, τ > 0, m > 0, h > 0 (else BadInput naming the value), except that
// toOde accepts ε = 0 and τ = 0 (CFM = 0, ERP = 4).
SpringDamper toSpringDamper(const SpookParameters& p);
SpookParameters fromSpringDamper(const SpringDamper& s);
OdeErpCfm toOde(const SpookParameters& p, double h);
SpookParameters fromOde(const OdeErpCfm& o, double h);
MujocoSolref toMujoco(const SpookParameters& p, double effectiveMass = 1.0);
SpookParameters fromMujoco(const MujocoSolref& m, double effectiveMass = 1.0);
Box2dSoft toBox2d(const SpookParameters& p, double effectiveMass = 1.0);
SpookParameters fromBox2d(const Box2dSoft& b, double effectiveMass = 1.0);

// Measured stability of SPOOK on the paper's ladder (N = 20, 10 s, released horizontal; see
// bench_ladder --stability and test_spook_conventions). Returns an empty string inside the region,
// else a warning saying which measured bound is broken. Never clamps anything. unitRows: the paper's
// director rods, held at unit length by the rows u·u = 1 (`--stability`); false: rods as rigid bodies
// without such rows (`--stability rigid`: there only τ/h < 0.5 failed, at every h from 1/120 to 1/10).
std::string spookStabilityWarning(const SpookParameters& p, double h, bool unitRows = true);

}  // namespace varsim
