// engine/integrators/planar_impact.cpp — car and snakeboard steps with the swept obstacle test and the
// restitution impact on the constrained velocity (see the header).
#include "engine/integrators/planar_impact.h"

#include <cmath>
#include <string>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {

namespace {

// The footprint corner closest to (or deepest in) the obstacle, as the visible contact point.
Eigen::Vector2d contactPoint(const Footprint& f, const se2::Pose2& g, const PlanarBox& b) {
  const se2::Pose2 box{b.heading, b.cx, b.cy};
  const se2::Pose2 inv = box.inverse();
  Eigen::Vector2d best = g.act({f.xMin, f.yMin});
  double bestDist = INFINITY;
  for (double x : {f.xMin, f.xMax})
    for (double y : {f.yMin, f.yMax}) {
      const Eigen::Vector2d w = g.act({x, y}), q = inv.act(w);
      const double d = std::hypot(std::max(std::abs(q.x()) - b.halfX, 0.0), std::max(std::abs(q.y()) - b.halfY, 0.0));
      if (d < bestDist) bestDist = d, best = w;
    }
  return best;
}

}  // namespace

void validateRestitution(double e, const char* where) {
  if (!(e >= 0.0 && e <= 1.0))
    throw BadInput(std::string(where) + ": key 'restitution' = " + formatNumber(e) + ": allowed range [0, 1]");
}

ImpactEvent carStepSolid(const CarParams& p, double alpha, double h, CarState& s, double steerRate, double torque,
                         const Footprint& footprint, const std::vector<PlanarBox>& obstacles, double restitution,
                         VehicleIntegrator method) {
  validateRestitution(restitution, "car");
  const CarState before = s;
  carStepWith(method, p, alpha, h, s, steerRate, torque);  // throws with s unchanged
  const Vector3d v(h * (p.rho / p.l) * s.sigmaMid * s.u, h * p.rho * s.u, 0.0);  // the step's h xi_k
  const SweptContact c = sweep(footprint, before.g, v, obstacles);
  ImpactEvent e;
  if (!c.hit) return e;
  s.g = before.g * se2::exp(c.lambda * v);
  s.psi = before.psi + c.lambda * h * s.u;
  s.pMinus = -restitution * s.pMinus;  // rolling reversed along the wheels: E -> e^2 E
  e.hit = true;
  e.obstacle = c.obstacle;
  e.lambda = c.lambda;
  e.speedBefore = p.rho * s.u;
  e.speedAfter = -restitution * e.speedBefore;
  e.point = contactPoint(footprint, s.g, obstacles[size_t(c.obstacle)]);
  return e;
}

ImpactEvent snakeboardStepSolid(const SnakeboardParams& p, double alpha, double h, SnakeboardState& s, double psiNext,
                                double phiNext, const Footprint& footprint, const std::vector<PlanarBox>& obstacles,
                                double restitution, VehicleIntegrator method) {
  validateRestitution(restitution, "snakeboard");
  const SnakeboardState before = s;
  snakeboardStepWith(method, p, alpha, h, s, psiNext, phiNext);  // throws with s unchanged
  const SweptContact c = sweep(footprint, before.g, h * s.xi, obstacles);
  ImpactEvent e;
  if (!c.hit) return e;
  s.g = before.g * se2::exp(c.lambda * (h * s.xi));
  // The board's velocity along e1 reversed; the rider's rotor momentum stays (the shape is prescribed).
  Vector3d mu = snakeboard::lockedInertia(p).cwiseProduct(-restitution * s.xi);
  mu[0] += p.I * s.uPsi;
  s.p = mu.dot(snakeboard::e1(p.l, s.phi));
  e.hit = true;
  e.obstacle = c.obstacle;
  e.lambda = c.lambda;
  e.speedBefore = std::hypot(s.xi[1], s.xi[2]);
  e.speedAfter = -restitution * e.speedBefore;
  e.point = contactPoint(footprint, s.g, obstacles[size_t(c.obstacle)]);
  return e;
}

}  // namespace varsim
