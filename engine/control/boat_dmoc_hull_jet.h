// engine/control/boat_dmoc_hull_jet.h — exact second derivatives of the wrench terms in the boat DMOC's momentum rows
// (boat_dmoc.h) in still water: the end-of-step hull wrench l . Tr f^+ (Boat::endOfStepWrench at g_{k+1} with the
// exposures frozen at g_k) and the thrusters' immersion at g_k, evaluated on second-order jets (jet2.h) in the segment
// variables that move them, z = (theta_k, x_k,z, w_k, v_k) (in still water nothing depends on x_k,x, x_k,y).
#pragma once

#include <array>

#include "engine/control/jet2.h"
#include "engine/integrators/lgvi_se3.h"
#include "engine/models/boat.h"

namespace varsim {

// Where z's entries sit in a boat DMOC block [theta, x, w, v, u].
inline constexpr std::array<int, 10> kBoatHullJetOffsets = {0, 1, 2, 5, 6, 7, 8, 9, 10, 11};

struct BoatHullJets {
  Jet2<10> endWrench;                // l . Tr f^+  (l = (torque, force) multipliers, the axes of node k)
  std::array<Jet2<4>, 2> immersion;  // iota(g_k) of the thrusters (right, left) in (theta_k, x_k,z)
};

// The same model as the rows, piece by piece (kinks as the Jacobian's, patch_exposure_derivative.h and
// Boat::thrustPoseJacobian): a patch's wet polygon is the clip of its corners by s(r) = z . r + x_z <= 0 (z = R^T e_z),
// so its wet area and centroid are rational in z on each sign pattern of the corners; buoyancy, volume and volume
// moment of the end pose come from the same clip of the six hull faces by the divergence theorem with fields that vanish
// on the waterline cap (V = sum_faces (z . n) int s dA, m = sum (z . n) int (s r - s^2 z / 2) dA); the wind exposure
// ramp s_eps is piecewise quadratic; the immersion ramp is linear inside (0, 1) and clamped outside (zero slope).
// Requires still water (water.still()).
BoatHullJets boatHullJets(const Boat& boat, const WaterSurface& water, const LgviOptions& o, double h,
                          const Matrix3d& Rbar, const Vector3d& theta, double xz, const Vector6d& xi,
                          const Vector6d& l);

}  // namespace varsim
