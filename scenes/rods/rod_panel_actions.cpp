// The SPOOK panel's actions (widget changes → live edits), per-step samples and joint picking (see
// rod_panel.h), and RodScene's panel hooks that return them. Every relaxation change goes through relaxationEdits, so the ε/τ rule stays in
// effectiveRelaxation and a per-constraint value is a recorded scene edit relax.<i>.
#include <algorithm>
#include <cmath>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "scenes/rods/rod_panel.h"
#include "scenes/rods/rod_tuning.h"

namespace varsim {

namespace {

double numberOf(const std::string& action, const std::string& value) {
  const NumberText n = parseNumber(value);
  if (!n.ok) throw BadInput(action + ": " + n.error);
  return n.value;
}

RelaxationTarget parseTarget(const RodScene& scene, const std::string& action, const std::string& text) {
  if (text == "global") return {RelaxationTarget::Kind::Global, "", -1};
  if (text.rfind("g:", 0) == 0) return {RelaxationTarget::Kind::Group, text.substr(2), -1};
  if (text.rfind("c:", 0) == 0) {
    const NumberText n = parseNumber(text.substr(2));
    if (n.ok && n.value == std::floor(n.value) && n.value >= 0 && n.value < scene.constraintCount())
      return {RelaxationTarget::Kind::Constraint, "", int(n.value)};
  }
  throw BadInput(action + ": unknown target '" + shortText(text) + "' (allowed: global, g:<group>, c:<constraint>)");
}

// The targets of the conventions tab in its order (global, groups, picked constraint under SPOOK).
RelaxationTarget conventionTarget(const RodScene& scene, const PanelContext& ctx) {
  const auto groups = tunableGroups(scene);
  const int k = int(parseNumber(ctx.get("conv.target", "0")).value);
  if (k >= 1 && k <= int(groups.size())) return {RelaxationTarget::Kind::Group, groups[size_t(k - 1)], -1};
  const int picked = pickedConstraint(scene, ctx);
  if (k == int(groups.size()) + 1 && picked >= 0 && scene.profile()) return {RelaxationTarget::Kind::Constraint, "", picked};
  return {RelaxationTarget::Kind::Global, "", -1};
}

std::vector<PanelEdit> conventionEdit(const RodScene& scene, const PanelContext& ctx, const std::string& action,
                                      const std::string& value) {
  const size_t colon = action.rfind(':');
  const std::string key = action.substr(5, colon - 5), side = action.substr(colon + 1);
  for (Convention c : kConventions) {
    if (key != conventionInfo(c).key) continue;
    const RelaxationTarget target = conventionTarget(scene, ctx);
    const double mass = parseNumber(ctx.get("conv.mass", "1")).value;
    std::array<double, 2> ab = toConvention(c, targetRelaxation(scene, target), scene.dt(), mass);
    ab[side == "b" ? 1 : 0] = numberOf(action, value);
    return relaxationEdits(scene, target, fromConvention(c, ab, scene.dt(), mass));
  }
  throw BadInput(action + ": unknown convention '" + shortText(key) + "'");
}

}  // namespace

int pickedConstraint(const RodScene& scene, const PanelContext& ctx) {
  const std::string text = ctx.get("pick");
  if (text.empty()) return -1;
  const NumberText n = parseNumber(text);
  if (!n.ok || n.value != std::floor(n.value) || n.value < 0 || n.value >= scene.constraintCount()) return -1;
  return int(n.value);
}

std::vector<PanelEdit> spookPanelAction(const RodScene& scene, const PanelContext& ctx, const std::string& action,
                                        const std::string& value) {
  const auto local = [](std::string key, std::string text) {
    return std::vector<PanelEdit>{{PanelEdit::Kind::Local, std::move(key), std::move(text), 0.0}};
  };
  if (action.rfind("eps:", 0) == 0 || action.rfind("tauh:", 0) == 0) {
    const bool eps = action[0] == 'e';
    const RelaxationTarget target = parseTarget(scene, action, action.substr(eps ? 4 : 5));
    SpookParameters p = targetRelaxation(scene, target);
    (eps ? p.epsilon : p.tau) = numberOf(action, value) * (eps ? 1.0 : scene.dt());
    return relaxationEdits(scene, target, p);
  }
  if (action.rfind("clear:", 0) == 0) {
    const RelaxationTarget target = parseTarget(scene, action, "c:" + action.substr(6));
    return {{PanelEdit::Kind::SceneEdit, "relax." + std::to_string(target.constraint), "", 0.0}};
  }
  if (action.rfind("param:", 0) == 0) return {{PanelEdit::Kind::Param, action.substr(6), "", numberOf(action, value)}};
  if (action == "pick") {
    if (value.empty()) return local("pick", "");
    const std::vector<int>& joints = scene.joints();
    const NumberText n = parseCount(value, 0, double(joints.size()) - 1);
    if (!n.ok) throw BadInput("pick: " + n.error);
    return local("pick", std::to_string(joints[size_t(n.value)]));
  }
  if (action == "conv.target") return local("conv.target", value);
  if (action == "conv.mass") {
    const double m = numberOf(action, value);
    toConvention(Convention::SpringDamperPerMass, {1, 1}, scene.dt(), m);  // validates m
    return local("conv.mass", formatNumber(m));
  }
  if (action.rfind("conv:", 0) == 0) return conventionEdit(scene, ctx, action, value);
  throw BadInput("SPOOK panel: unknown action '" + shortText(action) + "'");
}

void spookPanelSamples(const RodScene& scene, const PanelContext& ctx, std::vector<PanelSample>& out) {
  const int picked = pickedConstraint(scene, ctx);
  if (picked >= 0) {
    const RodScene::ConstraintStatus s = scene.constraintStatus(picked);
    out.push_back({"joint " + std::to_string(picked), {"gap (m)", "force (N)"}, {s.violation, s.force}, false});
  }
  out.push_back({"speed profile", {}, scene.speedProfile().speeds, true});
}

PanelPick spookPick(const RodScene& scene, const std::array<double, 3>& origin, const std::array<double, 3>& direction,
                    double maxAngle) {
  const int i = pickJointOnRay(scene, Eigen::Vector3d(origin[0], origin[1], origin[2]),
                               Eigen::Vector3d(direction[0], direction[1], direction[2]), maxAngle);
  if (i < 0) return {};
  const Eigen::Vector3d p = scene.jointPosition(i);
  return {"pick", std::to_string(i), {p.x(), p.y(), p.z()}};
}

// RodScene's side of the panel: the rule per constraint, the profile, and the Scene panel hooks.
SpookParameters RodScene::constraintRelaxation(int i) const {
  const ConstraintStatus s = constraintStatus(i);  // throws BadInput on a bad index
  const auto it = overrides_.find(i);
  return effectiveRelaxation(params_, system_->groupNames().at(size_t(s.group)), it == overrides_.end() ? nullptr : &it->second,
                             weight());
}

std::vector<int> RodScene::overriddenConstraints() const {
  std::vector<int> out;
  for (const auto& [i, r] : overrides_) out.push_back(i);
  return out;
}

RodScene::SpeedProfile RodScene::speedProfile() const {
  SpeedProfile out;
  for (size_t b = 0; b < system_->bodies().size(); ++b) out.speeds.push_back(system_->endSpeed(int(b), main_->state.v));
  return out;
}

std::vector<ScenePanel> RodScene::panels(const PanelContext& ctx) const { return spookPanels(*this, ctx); }

void RodScene::panelSamples(const PanelContext& ctx, std::vector<PanelSample>& out) const { spookPanelSamples(*this, ctx, out); }

std::vector<PanelEdit> RodScene::panelAction(const PanelContext& ctx, const std::string& action, const std::string& value) const {
  return spookPanelAction(*this, ctx, action, value);
}

PanelPick RodScene::pick(const PanelContext&, const std::array<double, 3>& origin, const std::array<double, 3>& direction,
                         double maxAngle) const {
  return spookPick(*this, origin, direction, maxAngle);
}

}  // namespace varsim
