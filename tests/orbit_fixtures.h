// tests/orbit_fixtures.h — the seed 004 Sec. 5 experiment shared by the quaternion LGVI tests and bench_orbit: three
// unit balls of radius 0.1 on an equilateral triangle of side 1 (our choice for the missing Fig. 1), central field gm =
// 1, x0 = (8, 0, 0), q0 = 1, w0 = (1, 2, 3) = 2 J Omega0, and a TANGENTIAL p0 = (0, 1, 0) (ERRATA: the printed p0 = (1,
// 0, 0) is radial and plunges), i.e. xdot0 = p0 / 3. Header-only, test use.
#pragma once

#include <memory>

#include "engine/models/central_field.h"
#include "engine/models/quat_rigid_body.h"

namespace varsim::test {

struct OrbitSetup {
  BallCluster body = equilateralTriangle(1.0, 0.1, 1.0);
  RigidBodyInertia inertia = clusterInertia(body);
  std::shared_ptr<const RigidPotential> potential = std::make_shared<CentralFieldPotential>(body, 1.0);
  Vector3d x0 = Vector3d(8.0, 0.0, 0.0);
  quat::Quat q0 = quat::identity();
  Vector3d xdot0 = Vector3d(0.0, 1.0, 0.0) / 3.0;
  Vector3d omega0 = 0.5 * inertia.J.inverse() * Vector3d(1.0, 2.0, 3.0);  // w0 = 2 J Omega0 = (1, 2, 3)
  QuatRigidState state0() const { return quatRigidStateFrom(inertia, x0, q0, xdot0, omega0); }
};

}  // namespace varsim::test
