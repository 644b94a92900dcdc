// SPOOK tuning of a rod scene as data; see header.
#include "scenes/rods/rod_tuning.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/sim/errors.h"

namespace varsim {

namespace {

std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// Multiplier m with global × m = wanted; the current multiplier when both are 0.
double multiplierFor(const std::string& key, double global, double wanted, double current) {
  if (global != 0.0) return wanted / global;
  if (wanted == 0.0) return current;
  throw BadInput("parameter '" + key + "': the global value is 0, so no multiplier gives " + num(wanted) +
                 "; set the global value first");
}

void requireMass(double mass) {
  if (!(mass > 0) || !std::isfinite(mass)) throw BadInput("effective mass = " + num(mass) + " kg: allowed (0, inf)");
}

}  // namespace

std::vector<std::string> tunableGroups(const RodScene& scene) {
  std::vector<std::string> out;
  for (const auto& g : scene.system().groupNames())
    if (scene.params().spec("eps_" + g) && scene.params().spec("tau_" + g)) out.push_back(g);
  return out;
}

SpookParameters targetRelaxation(const RodScene& scene, const RelaxationTarget& target) {
  const ParamSet& params = scene.params();
  switch (target.kind) {
    case RelaxationTarget::Kind::Global: return {params.real("epsilon"), params.real("tau")};
    case RelaxationTarget::Kind::Group: return scene.groupRelaxation(target.group);
    case RelaxationTarget::Kind::Constraint: return scene.constraintRelaxation(target.constraint);
  }
  return {};
}

std::vector<PanelEdit> relaxationEdits(const RodScene& scene, const RelaxationTarget& target, const SpookParameters& p) {
  const ParamSet& params = scene.params();
  std::vector<std::pair<std::string, double>> values;
  if (target.kind == RelaxationTarget::Kind::Global) {
    values = {{"epsilon", p.epsilon}, {"tau", p.tau}};
  } else if (target.kind == RelaxationTarget::Kind::Group) {
    const auto groups = tunableGroups(scene);
    if (std::find(groups.begin(), groups.end(), target.group) == groups.end())
      throw BadInput("constraint group '" + target.group + "' has no eps_/tau_ parameters in this scene");
    const std::string ek = "eps_" + target.group, tk = "tau_" + target.group;
    values = {{ek, multiplierFor(ek, params.real("epsilon"), p.epsilon, params.real(ek))},
              {tk, multiplierFor(tk, params.real("tau"), p.tau, params.real(tk))}};
  } else {
    // Same ranges as the global parameters, so a constraint cannot be given what the panel forbids.
    const std::string name = scene.constraintStatus(target.constraint).name;  // throws on a bad index
    for (const auto& [key, value] : {std::pair<const char*, double>{"epsilon", p.epsilon}, {"tau", p.tau}})
      if (const auto error = validateParam(*params.spec(key), ParamValue{{value}, {}}))
        throw BadInput("constraint " + name + ": " + key + " = " + num(value) + ": " + *error);
    return {{PanelEdit::Kind::SceneEdit, "relax." + std::to_string(target.constraint),
             formatNumber(p.epsilon) + "," + formatNumber(p.tau), 0.0}};
  }
  std::vector<PanelEdit> edits;
  for (const auto& [key, value] : values) {
    if (const auto error = validateParam(*params.spec(key), ParamValue{{value}, {}}))
      throw BadInput("parameter '" + key + "' = " + num(value) + ": " + *error);
    edits.push_back({PanelEdit::Kind::Param, key, "", value});
  }
  return edits;
}

std::vector<std::string> stabilityWarningLines(const RodScene& scene) {
  std::vector<std::pair<std::string, std::string>> byText;  // warning → who, in first-seen order
  auto add = [&](const std::string& who, const std::string& group, const SpookParameters& p) {
    const std::string w = scene.relaxationWarning(group, p);
    if (w.empty()) return;
    for (auto& [text, names] : byText)
      if (text == w) {
        names += ", " + who;
        return;
      }
    byText.emplace_back(w, who);
  };
  for (const auto& g : tunableGroups(scene)) add(g, g, scene.groupRelaxation(g));
  for (int i : scene.overriddenConstraints()) add(scene.constraintStatus(i).name, "", scene.constraintRelaxation(i));
  std::vector<std::string> lines;
  for (const auto& [text, names] : byText) lines.push_back(names + ": " + text);
  return lines;
}

GhostHealth ghostHealth(const RodScene::GhostStatus& ghost) {
  if (ghost.diverged) return GhostHealth::Diverged;
  return ghost.energyGrowthAt >= 0.0 ? GhostHealth::EnergyGrowth : GhostHealth::Running;
}

ConventionInfo conventionInfo(Convention c) {
  switch (c) {
    case Convention::SpringDamperPerMass: return {"spring/damper", "spring", "k/m [1/s^2]", "c/m [1/s]"};
    case Convention::OdeErpCfm: return {"ODE", "ode", "ERP", "CFM"};
    case Convention::MujocoSolref: return {"MuJoCo solref", "mujoco", "timeconst [s]", "dampratio"};
    case Convention::Box2dSoft: return {"Box2D soft", "box2d", "hertz [Hz]", "zeta"};
  }
  return {"", "", "", ""};
}

std::array<double, 2> toConvention(Convention c, const SpookParameters& p, double h, double mass) {
  requireMass(mass);
  switch (c) {
    case Convention::SpringDamperPerMass: {
      const SpringDamper s = toSpringDamper(p);
      return {s.k / mass, s.c / mass};
    }
    case Convention::OdeErpCfm: {
      const OdeErpCfm o = toOde(p, h);
      return {o.erp, o.cfm};
    }
    case Convention::MujocoSolref: {
      const MujocoSolref m = toMujoco(p, mass);
      return {m.timeconst, m.dampratio};
    }
    case Convention::Box2dSoft: {
      const Box2dSoft b = toBox2d(p, mass);
      return {b.hertz, b.zeta};
    }
  }
  return {0, 0};
}

SpookParameters fromConvention(Convention c, const std::array<double, 2>& ab, double h, double mass) {
  requireMass(mass);
  for (double v : ab)
    if (!std::isfinite(v)) throw BadInput(std::string(conventionInfo(c).name) + ": value " + num(v) + " is not finite");
  switch (c) {
    case Convention::SpringDamperPerMass: return fromSpringDamper({ab[0] * mass, ab[1] * mass});
    case Convention::OdeErpCfm: return fromOde({ab[0], ab[1]}, h);
    case Convention::MujocoSolref: return fromMujoco({ab[0], ab[1]}, mass);
    case Convention::Box2dSoft: return fromBox2d({ab[0], ab[1]}, mass);
  }
  return {};
}

int pickJointOnRay(const RodScene& scene, const Eigen::Vector3d& origin, const Eigen::Vector3d& direction, double maxAngle) {
  const double len = direction.norm();
  if (!(len > 0) || !std::isfinite(len) || !origin.allFinite() || !(maxAngle > 0)) return -1;
  const Eigen::Vector3d d = direction / len;
  // The angle off the ray, atan(across / along), grows with across / along in front of the origin: the ratios are
  // compared (no atan2 per joint: 20 001 joints at N = 5000, every frame the mouse is over the view).
  int best = -1;
  double bestRatio = maxAngle < 1.5707963267948966 ? std::tan(maxAngle) : HUGE_VAL;
  for (int i : scene.joints()) {
    const Eigen::Vector3d w = scene.jointPosition(i) - origin;
    const double along = w.dot(d);
    if (!(along > 0)) continue;
    const double ratio = (w - along * d).norm() / along;
    if (ratio < bestRatio || (ratio == bestRatio && best < 0)) best = i, bestRatio = ratio;
  }
  return best;
}

std::string shortName(const std::string& name) { return name.substr(0, name.find(':')); }

}  // namespace varsim
