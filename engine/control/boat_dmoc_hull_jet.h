// engine/control/boat_dmoc_hull_jet.h — exact first and second derivatives of the wrench terms in the boat DMOC's
// momentum rows (boat_dmoc.h): the end-of-step hull wrench Tr f^+ (gravity + buoyancy at g_{k+1}, drag and wind at
// xi^+ with the exposures and water velocity frozen at g_k, as Boat::endOfStepWrench) and the thrusters' immersion at
// g_k. Not a second copy of the physics: the boat's own wrench routines (engine/models/boat_wrench_generic.h, the ones
// the simulator's step runs on double) evaluated on second-order jets (jet2.h), in still water and under waves.
#pragma once

#include <array>

#include "engine/control/jet2.h"
#include "engine/integrators/lgvi_se3.h"
#include "engine/models/boat.h"

namespace varsim {

// z = the first 12 entries of a boat DMOC block: (theta_k, x_k, w_k, v_k).
using BoatSegmentJet = Jet2<12>;

struct BoatHullJets {
  std::array<BoatSegmentJet, 6> endWrench;  // Tr f^+ (torque; force) in the axes of node k
  std::array<Jet2<6>, 2> immersion;         // iota(g_k) of the thrusters (right, left) in (theta_k, x_k)
};

// At node k: R_k = Rbar exp(theta^), x_k, time tk; segment twist xi = (w, v), step h. The end pose's hydrostatics are
// evaluated on jets in a body perturbation of g_{k+1} and carried to z by the second-order chain rule (jet2.h compose).
BoatHullJets boatHullJets(const Boat& boat, const WaterSurface& water, const LgviOptions& o, double h, double tk,
                          const Matrix3d& Rbar, const Vector3d& theta, const Vector3d& x, const Vector6d& xi);

}  // namespace varsim
