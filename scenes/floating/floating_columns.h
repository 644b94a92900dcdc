// scenes/floating/floating_columns.h — the standard CSV columns of the floating-base scenes (ARCHITECTURE.md): t, energy,
// the momentum map (65) as L_*, p_*, the base pose x, y, z, qw..qz; each scene appends its own after these.
#pragma once

#include <string>
#include <vector>

#include "engine/integrators/floating_base.h"

namespace varsim {

std::vector<std::string> floatingStandardColumns();
// Fills `row` with the standard columns of the stepper's current node (energy given by the scene).
void floatingStandardRow(const floating::FloatingStepper& s, double energy, std::vector<double>& row);

}  // namespace varsim
