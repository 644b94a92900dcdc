// scenes/orbit/orbit_params.h — parameters of the `orbit` scene (seed 004 Sec. 5): the three-ball body, the central
// field, the initial state and the integrator, with the cross-parameter checks that keep a run meaningful (unit
// quaternion, no ball overlap, start and orbit clear of the planet).
#pragma once

#include <vector>

#include "engine/models/central_field.h"
#include "engine/models/quat_rigid_body.h"
#include "engine/sim/param.h"

namespace varsim {

std::vector<ParamSpec> orbitParamSpecs();
// Throws BadInput naming key, value and allowed range: attitude |q| < 1e-6 (zero quaternion), 2 ball_radius >
// side (balls overlap), a ball within planet_radius of the centre at t = 0 (position), and an orbit whose
// centre of mass would pass within planet_radius + the body's reach of the centre (velocity; Kepler estimate).
void validateOrbitParams(const ParamSet& params);
BallCluster orbitBody(const ParamSet& params);  // equilateralTriangle(ball_mass, ball_radius, side)
// x0 = position, q0 = attitude / |attitude|, p0 = m velocity, w0 = 2 J omega (Sec. 4 step (2)).
QuatRigidState orbitInitialState(const ParamSet& params);

}  // namespace varsim
