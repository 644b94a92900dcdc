// engine/tree/pendulum_chain.h — the N-link planar pendulum of seed 003 Fig. 3
// as a tree: per link a hinge about the world y axis (dynamic, angle relative
// to the parent; 0 hangs straight down) and a constant translation -length
// along z carrying a point mass at the far end of a massless rod.
#pragma once

#include "engine/tree/tree.h"

namespace varsim::tree {

// Throws BadInput unless links >= 1, mass > 0, length > 0 (all finite). Frame
// 2l+1 carries mass l.
Tree pendulumChain(int links, double mass, double length);

// The same chain of uniform rods (mass m, length l): per link the hinge, a constant translation -l/2 to the
// rod's centre carrying m with inertia m l²/12 about the axes across the rod (none along it), and another
// -l/2 to the far end, the next hinge's parent. The last frame is the tip. Same BadInput rules.
Tree rodChain(int links, double mass, double length);

}  // namespace varsim::tree
