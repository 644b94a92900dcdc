// engine/floating/chain_builders.h — ready-made floating trees of boxes: seed 002 Fig. 4's three-body hinge
// chain with the central body as base, and a base with a serial arm (the space robot, the m-joint benchmark).
#pragma once

#include <array>
#include <vector>

#include "engine/floating/floating_chain.h"

namespace varsim::floating {

// Inertia of a solid box of mass m and edge lengths s about its centre: m/12 (s_y^2 + s_z^2, ...).
Matrix3d boxInertia(double mass, const Vector3d& size);

// Seed 002 Sec. 5.5 / Fig. 4: boxes 0 (left), 1 (base, centre), 2 (right) laid out along x at r = 0; hinge 1
// joins the base to the left box at the base's -x face, hinge 2 to the right box at its +x face, about the
// given unit axes (base frame). masses/sizes are ordered left, base, right. Throws BadInput like FloatingChain.
FloatingChain threeBodyChain(const std::array<double, 3>& masses, const std::array<Vector3d, 3>& sizes,
                             const std::array<Vector3d, 2>& axes);

// A base box with a serial arm of `links.size()` boxes along +x from the base's +x face; link i turns about
// axes[i] (base frame at r = 0) at its inner end. The box sizes give the link lengths (size.x()).
struct ArmLink {
  double mass = 1.0;
  Vector3d size{1.0, 0.1, 0.1};
  Vector3d axis = Vector3d::UnitZ();
};
FloatingChain serialArm(double baseMass, const Vector3d& baseSize, const std::vector<ArmLink>& links);

}  // namespace varsim::floating
