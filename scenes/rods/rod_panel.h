// The SPOOK tuning panel of every rod scene (ladder, chain, sleigh) as plain data (scene_panel.h):
// stability warning, status lines, tabs ε/τ, conventions, picked joint, speed profile (whiplash) and
// solver/ghosts; the actions its widgets send, the per-step samples its plots need and joint picking.
// RodScene's panel overrides call these; the UI draws the result like any scene's panels.
#pragma once
#include <string>
#include <vector>

#include "scenes/rods/rod_scene.h"
#include "scenes/scene_panel.h"

namespace varsim {

std::vector<ScenePanel> spookPanels(const RodScene& scene, const PanelContext& ctx);
void spookPanelSamples(const RodScene& scene, const PanelContext& ctx, std::vector<PanelSample>& out);
// Actions: "eps:<target>" (ε), "tauh:<target>" (τ in steps h) with <target> = global | g:<group> |
// c:<constraint>; "clear:<constraint>"; "param:<key>"; "pick" (index into the joint list, "" unpicks);
// "conv.target", "conv.mass"; "conv:<convention key>:a|b". Throws BadInput naming what is refused.
std::vector<PanelEdit> spookPanelAction(const RodScene& scene, const PanelContext& ctx, const std::string& action,
                                        const std::string& value);
PanelPick spookPick(const RodScene& scene, const std::array<double, 3>& origin, const std::array<double, 3>& direction,
                    double maxAngle);
// The picked constraint of the context (its "pick" value), −1 if none or no longer valid.
int pickedConstraint(const RodScene& scene, const PanelContext& ctx);

}  // namespace varsim
