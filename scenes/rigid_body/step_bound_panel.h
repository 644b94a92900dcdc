// scenes/rigid_body/step_bound_panel.h — the live readout of seed 002's a-priori step bounds (eqs. (19) TLN, (20) Cayley;
// engine/integrators/rigid_step_bounds.h) for the rigid-body scenes, as a plain-data panel: h beside h_bar for
// the body's inertia condition number kappa and the current |omega|, the Newton iteration count, and a warning
// when h exceeds the bound of the active C map (never clamped).
#pragma once

#include <string>

#include "engine/lie/lie_types.h"
#include "scenes/scene_panel.h"

namespace varsim {

// `tangent`: the LGVI's C map (Tln -> (19), Cay -> (20), others: no bound of seed 002). `method`: the selected
// integrator's name ("lgvi", or a baseline's: "rk2", "rk4", ...), which the readout names; for a baseline the LGVI's
// bounds are still shown for comparison. Plain names on screen, the paper's symbols in the tooltips.
ScenePanel stepBoundPanel(const Matrix3d& J, const Vector3d& omega, double h, int newtonIterations, Tangent tangent,
                          const std::string& method);
// The same readout as widgets (a warning first when h > h_bar), for a scene that adds it to its own panel.
std::vector<PanelWidget> stepBoundWidgets(const Matrix3d& J, const Vector3d& omega, double h, int newtonIterations,
                                          Tangent tangent, const std::string& method);

}  // namespace varsim
