// engine/models/ball_cluster.cpp — the three-ball body of seed 004 Sec. 5 and the inertia of any ball cluster.
#include "engine/models/ball_cluster.h"

#include <algorithm>
#include <cmath>

namespace varsim {

BallCluster equilateralTriangle(double ballMass, double ballRadius, double side) {
  const double a = side / std::sqrt(3.0);  // vertex distance from the centroid
  BallCluster b;
  b.centres = {Vector3d(a, 0.0, 0.0), Vector3d(-0.5 * a, 0.5 * side, 0.0), Vector3d(-0.5 * a, -0.5 * side, 0.0)};
  b.masses = {ballMass, ballMass, ballMass};
  b.radius = ballRadius;
  return b;
}

double totalMass(const BallCluster& body) {
  double m = 0.0;
  for (double mi : body.masses) m += mi;
  return m;
}

RigidBodyInertia clusterInertia(const BallCluster& body) {
  RigidBodyInertia I;
  I.mass = totalMass(body);
  I.J.setZero();
  for (size_t i = 0; i < body.centres.size(); ++i) {
    const Vector3d& r = body.centres[i];
    const double own = 0.4 * body.radius * body.radius;  // uniform ball about its centre
    I.J += body.masses[i] * ((r.squaredNorm() + own) * Matrix3d::Identity() - r * r.transpose());
  }
  return I;
}

double circumradius(const BallCluster& body) {
  double r = 0.0;
  for (const Vector3d& c : body.centres) r = std::max(r, c.norm());
  return r + body.radius;
}

}  // namespace varsim
