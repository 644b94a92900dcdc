// engine/models/generic_scalar.h — what the boat's wrench formulas (boat_wrench_generic.h, hull_hydrostatics_generic.h)
// need of their scalar type S: fixed-size vectors of S, the value part that decides every kink (clip test, clamp,
// min), and the elementary functions. S = double in the simulator's step; the planner instantiates the same formulas
// on second-order jets (engine/control/jet2.h, which adds the jet overloads) for their exact derivatives.
#pragma once

#include <cmath>

#include "engine/lie/lie_types.h"

namespace varsim {

template <class S>
using Vec3 = Eigen::Matrix<S, 3, 1>;
template <class S>
using Vec6 = Eigen::Matrix<S, 6, 1>;
template <class S>
using Mat3 = Eigen::Matrix<S, 3, 3>;

// The value on which a piecewise formula decides its branch (a jet's value part).
inline double scalarValue(double x) { return x; }

// std::clamp's branches decided on the value: a clamped result is a constant (zero derivatives).
template <class S>
S clampByValue(const S& x, double lo, double hi) {
  if (scalarValue(x) < lo) return S(lo);
  if (hi < scalarValue(x)) return S(hi);
  return x;
}

// std::min(x, c) with the branch on the value.
template <class S>
S minByValue(const S& x, double c) {
  return c < scalarValue(x) ? S(c) : x;
}

}  // namespace varsim
