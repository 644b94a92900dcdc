// engine/floating/shape_control.h — shape-space control of a free-floating chain with zero momentum (the
// space robot / falling cat): a joint servo whose torques are internal (the momentum map stays exactly
// conserved), closed loops in shape space (r returns to its rest value; the base does not: geometric phase),
// and a planner that picks, by simulating each candidate loop on a copy of the stepper, the loop that brings
// the base attitude closest to a target ("reorient by theta about an axis").
#pragma once

#include <vector>

#include "engine/integrators/floating_base.h"

namespace varsim::floating {

// Joint torques tau = M_red (wn^2 (r_ref - r) + 2 zeta wn (rdot_ref - rdot)) with M_red = M_rr - M_rx M_xx^-1 M_xr
// the joint-space inertia of the FREE-floating chain (Schur complement; the base recoils), so each joint
// responds like a damped oscillator of frequency wn whatever the link masses (explicit: keep h wn << 1).
VectorXd servoTorque(const FloatingChain& chain, const VectorXd& r, const VectorXd& rdot, const VectorXd& rRef,
                     const VectorXd& rdotRef, double wn, double zeta = 1.0);

// A closed loop in the (a, b) joint plane around `rest`: r_a = rest_a + A (1 - cos phi), r_b = rest_b + s A sin phi,
// phi = 2 pi t / period, t in [0, period]; s = +-1 the direction (reversing it reverses the net rotation).
struct ShapeLoop {
  int a = 0, b = 1;
  double sign = 1.0, amplitude = 0.5, period = 3.0;  // rad, s
  void reference(const VectorXd& rest, double t, VectorXd& r, VectorXd& rdot) const;
};

// Smooth move (cubic ease, zero end rates) from `from` to `to` over `duration` s: the settle phase before loops.
void easeReference(const VectorXd& from, const VectorXd& to, double duration, double t, VectorXd& r, VectorXd& rdot);

// Runs `loop` from the stepper's current state (a copy; the original is untouched) with the servo and returns the
// base attitude after the loop plus `settle` s of holding the rest shape, at the stepper's h or 1/60 s if that is
// coarser (a prediction). Throws SimulationDiverged from the copy.
Matrix3d simulateLoop(const FloatingStepper& stepper, const VectorXd& rest, const ShapeLoop& loop, double wn,
                      double settle = 0.5);

// Greedy choice of the next loop: every joint pair, both directions and amplitudes maxAmplitude * 2^-j (j < levels)
// are simulated; returns false when none brings log(R_target^T R) closer than `tolerance` rad or than now.
bool planLoop(const FloatingStepper& stepper, const VectorXd& rest, const Matrix3d& target, double period, double wn,
              double maxAmplitude, int levels, double tolerance, ShapeLoop& best, double& predictedError);

}  // namespace varsim::floating
