// scenes/rigid_body/step_bound_panel.h — the live readout of seed 002's a-priori step bounds (eqs. (19) TLN, (20) Cayley;
// engine/integrators/rigid_step_bounds.h) for the rigid-body scenes, as a plain-data panel: h beside h_bar for
// the body's inertia condition number kappa and the current |omega|, the Newton iteration count, and a warning
// when h exceeds the bound of the active C map (never clamped).
#pragma once

#include "engine/lie/lie_types.h"
#include "scenes/scene_panel.h"

namespace varsim {

// `tangent`: the LGVI's C map (Tln -> (19), Cay -> (20), others: no bound of seed 002). lgvi = false: RK4, no
// Newton; the bounds are still shown for comparison.
ScenePanel stepBoundPanel(const Matrix3d& J, const Vector3d& omega, double h, int newtonIterations, Tangent tangent,
                          bool lgvi);
// The same readout as widgets (a warning first when h > h_bar), for a scene that adds it to its own panel.
std::vector<PanelWidget> stepBoundWidgets(const Matrix3d& J, const Vector3d& omega, double h, int newtonIterations,
                                          Tangent tangent, bool lgvi);

}  // namespace varsim
