// scenes/orbit/orbit_params.cpp — declaration and validation of the `orbit` scene's parameters.
#include "scenes/orbit/orbit_params.h"

#include <string>

#include "engine/sim/errors.h"

namespace varsim {
namespace {

std::string vecText(const Vector3d& v) {
  return "(" + formatNumber(v.x()) + ", " + formatNumber(v.y()) + ", " + formatNumber(v.z()) + ")";
}

}  // namespace

std::vector<ParamSpec> orbitParamSpecs() {
  return {
      ParamSpec::choice("integrator", "quat_lgvi", {"quat_lgvi", "so3xr3_lgvi", "rk4"},
                        "quat_lgvi = seed 004 eq. (23) on unit quaternions; so3xr3_lgvi = seed 000 LGVI on SO(3)xR3 "
                        "(cay, C_cay) with the field as a body wrench; rk4 = RK4 of eq. (15), quaternion not "
                        "renormalised"),
      ParamSpec::real("dt", 0.01, 1e-4, 0.1, "s",
                      "time step (seed 004 Sec. 5: 0.01); with quat_lgvi below 1/|omega| (see omega)")
          .setLive()
          .setLog(),
      ParamSpec::real("gm", 1.0, 0.0, 1e3, "m^3/s^2", "gravitational parameter of the central mass (V = -gm m / r)",
                      true),
      ParamSpec::real("planet_radius", 1.0, 0.0, 1e3, "m",
                      "radius of the central body: drawn, and the start and the orbit must stay clear of it (the "
                      "field is that of a point mass)"),
      ParamSpec::real("ball_mass", 1.0, 1e-6, 1e3, "kg",
                      "mass of each of the three uniform balls; from 1e-6 kg (ran 3 s; 1e-308 gave a non-finite "
                      "momentum error at t = 0)"),
      ParamSpec::real("ball_radius", 0.1, 0.0, 10.0, "m", "radius of each ball (at most side/2)", true),
      ParamSpec::real("side", 1.0, 0.0, 100.0, "m",
                      "side of the equilateral triangle of ball centres in the body x-y plane (our choice for the "
                      "missing Fig. 1)",
                      true),
      ParamSpec::vector("position", {8.0, 0.0, 0.0}, -1e4, 1e4, "m", "initial centre of mass x0 (world)"),
      ParamSpec::vector("velocity", {0.0, 1.0 / 3.0, 0.0}, -1e3, 1e3, "m/s",
                        "initial centre-of-mass velocity (Sec. 5 with a tangential p0 = (0, 1, 0), ERRATA)"),
      ParamSpec::vector("attitude", {1.0, 0.0, 0.0, 0.0}, -1e3, 1e3, "",
                        "initial attitude as a quaternion w,x,y,z (body -> world), normalised; not zero"),
      ParamSpec::vector("omega", {0.9765625, 1.953125, 1.482213438735178}, -50.0, 50.0, "rad/s",
                        "initial body angular velocity Omega (default: w0 = 2 J Omega = (1, 2, 3) of Sec. 5); "
                        "with quat_lgvi refused when dt |Omega| >= 1 (no root of eq. (23) beyond it: spins about a "
                        "principal axis failed at dt |Omega| = 1.0 and ran 20 s at 0.99)"),
  };
}

BallCluster orbitBody(const ParamSet& p) {
  return equilateralTriangle(p.real("ball_mass"), p.real("ball_radius"), p.real("side"));
}

QuatRigidState orbitInitialState(const ParamSet& p) {
  const std::vector<double>& a = p.vector("attitude");
  return quatRigidStateFrom(clusterInertia(orbitBody(p)), p.vec3("position"), quat::Quat(a[0], a[1], a[2], a[3]),
                            p.vec3("velocity"), p.vec3("omega"));
}

void validateOrbitParams(const ParamSet& p) {
  const std::vector<double>& a = p.vector("attitude");
  const double qn = quat::Quat(a[0], a[1], a[2], a[3]).norm();
  if (!(qn >= 1e-6))
    throw BadInput("attitude = " + p.valueText("attitude") + ": |q| = " + formatNumber(qn) +
                   "; allowed |q| >= 1e-6 (any non-zero quaternion, normalised before use)");
  const double radius = p.real("ball_radius"), side = p.real("side");
  if (2.0 * radius > side)
    throw BadInput("ball_radius = " + formatNumber(radius) + " with side = " + formatNumber(side) +
                   ": the balls overlap; allowed ball_radius <= side/2 = " + formatNumber(0.5 * side));
  const double spin = p.vec3("omega").norm(), dt = p.real("dt");
  if (p.choice("integrator") == "quat_lgvi" && !(dt * spin < 1.0))
    throw BadInput("dt = " + formatNumber(dt) + " s with omega = " + p.valueText("omega") + " (|Omega| = " +
                   formatNumber(spin) + " rad/s): dt |Omega| = " + formatNumber(dt * spin) +
                   " >= 1, where quat_lgvi's eq. (23) has no solution; allowed dt < 1/|Omega| = " +
                   formatNumber(1.0 / spin) + " s (or integrator so3xr3_lgvi / rk4)");
  const QuatRigidState s = orbitInitialState(p);
  const BallCluster body = orbitBody(p);
  const CentralFieldPotential field(body, p.real("gm"));
  const double planet = p.real("planet_radius"), clearance = field.clearance(s.x, quat::toRotation(s.q));
  if (!(clearance > planet))
    throw BadInput("position = " + vecText(s.x) +
                   ": the body starts inside the planet (closest ball surface at r = " + formatNumber(clearance) +
                   " m); allowed: every ball outside planet_radius = " + formatNumber(planet) + " m of the centre");
  const double reach = circumradius(body), closest = keplerClosestApproach(s.x, p.vec3("velocity"), p.real("gm"));
  if (!(closest > planet + reach))
    throw BadInput("velocity = " + vecText(p.vec3("velocity")) + " at position " + vecText(s.x) + " with gm " +
                   formatNumber(p.real("gm")) + ": the centre of mass's Kepler orbit comes within r = " +
                   formatNumber(closest) + " m of the centre; allowed: a closest approach above planet_radius + " +
                   "body reach = " + formatNumber(planet + reach) +
                   " m (more tangential velocity; seed 004's printed p0 = (1, 0, 0) is radial, ERRATA)");
}

}  // namespace varsim
