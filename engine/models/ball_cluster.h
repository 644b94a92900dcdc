// engine/models/ball_cluster.h — a rigid body made of uniform balls held by massless rods (seed 004 Sec. 5): ball
// centres in the body frame about the centre of mass, their masses, the common radius, and the inertia of the whole
// (point masses plus each ball's own 2/5 m r^2).
#pragma once

#include <vector>

#include "engine/models/rigid_body.h"

namespace varsim {

struct BallCluster {
  std::vector<Vector3d> centres;  // m, body frame; sum m_i rho_i = 0 (the body origin is the centre of mass)
  std::vector<double> masses;     // kg, > 0
  double radius = 0.1;            // m, of every ball
};

// Seed 004's Figure 1 is missing (ERRATA): our choice is three balls of mass m on an equilateral triangle of side
// `side` in the body x-y plane, centred at the centre of mass, ball 1 on the body x axis at side/sqrt(3). Point-mass
// part J = m side^2 diag(1/2, 1/2, 1) (plus 6/5 m r^2 on every axis for the balls themselves).
BallCluster equilateralTriangle(double ballMass, double ballRadius, double side);

double totalMass(const BallCluster& body);
// Mass and inertia about the centre of mass: sum m_i (|rho_i|^2 I - rho_i rho_i^T) + 2/5 m_i r^2 I.
RigidBodyInertia clusterInertia(const BallCluster& body);
double circumradius(const BallCluster& body);  // max |rho_i| + radius, m: the body's reach from its centre

}  // namespace varsim
