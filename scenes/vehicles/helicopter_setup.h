// scenes/vehicles/helicopter_setup.h — what the helicopter scene builds from its parameters (model settings, contact law,
// start state), exposed so the planner (plan/heli_plan.cpp) plans for exactly the scene it replays in.
#pragma once

#include "engine/lie/se3.h"
#include "engine/models/helicopter.h"
#include "engine/models/helicopter_world.h"
#include "engine/sim/param.h"

namespace varsim {

HelicopterSettings helicopterSettingsFrom(const ParamSet& p);  // mass, inertia, arms, drag, gravity, limits
// Start pose (start_position, start_heading about world z) and body twist (start_omega, R^T start_velocity).
void helicopterStartFrom(const ParamSet& p, se3::Pose& g0, Vector6d& xi0);
// contact=implicit with the LGVI: the stiff mass-proportional law on the four skid ends; else the soft default.
bool helicopterImplicitContact(const ParamSet& p);
ContactSettings helicopterContactFrom(const ParamSet& p);

}  // namespace varsim
