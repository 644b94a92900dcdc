// Data side of the SPOOK tuning panel; see header.
#include "ui/core/rod_panel_data.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "engine/sim/errors.h"
#include "scenes/ladder_scene.h"

namespace varsim {

namespace {

std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// Group index of `name` in the system's group list, −1 if absent.
int groupIndex(const RodSystem& system, const std::string& name) {
  const auto names = system.groupNames();
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : int(it - names.begin());
}

SpookParameters groupRelaxation(const ParamSet& params, const std::string& group) {
  SpookParameters p{params.real("epsilon"), params.real("tau")};
  if (params.spec("eps_" + group)) {
    p.epsilon *= params.real("eps_" + group);
    p.tau *= params.real("tau_" + group);
  }
  return p;
}

// Multiplier m with global × m = wanted; the current multiplier when both are 0.
double multiplierFor(const std::string& key, double global, double wanted, double current) {
  if (global != 0.0) return wanted / global;
  if (wanted == 0.0) return current;
  throw BadInput("parameter '" + key + "': the global value is 0, so no multiplier gives " + num(wanted) +
                 "; set the global value first");
}

}  // namespace

std::vector<std::string> tunableGroups(const RodScene& scene, const ParamSet& params) {
  std::vector<std::string> out;
  for (const auto& g : scene.system().groupNames())
    if (params.spec("eps_" + g) && params.spec("tau_" + g)) out.push_back(g);
  return out;
}

SpookParameters targetRelaxation(const RodScene& scene, const ParamSet& params, const RelaxationTarget& target) {
  switch (target.kind) {
    case RelaxationTarget::Kind::Global: return {params.real("epsilon"), params.real("tau")};
    case RelaxationTarget::Kind::Group: return groupRelaxation(params, target.group);
    case RelaxationTarget::Kind::Constraint: {
      const RodScene::ConstraintStatus s = scene.constraintStatus(target.constraint);  // throws on a bad index
      if (scene.profile()) return {s.relaxation.epsilon, s.relaxation.tau};          // SPOOK: the stepper's own values
      return groupRelaxation(params, scene.system().groupNames().at(size_t(s.group)));
    }
  }
  return {};
}

void applyTargetRelaxation(SimDriver& driver, RodScene& scene, const RelaxationTarget& target, const SpookParameters& p) {
  const ParamSet& params = driver.params();
  std::vector<std::pair<std::string, double>> edits;
  if (target.kind == RelaxationTarget::Kind::Global) {
    edits = {{"epsilon", p.epsilon}, {"tau", p.tau}};
  } else if (target.kind == RelaxationTarget::Kind::Group) {
    if (groupIndex(scene.system(), target.group) < 0 || !params.spec("eps_" + target.group))
      throw BadInput("constraint group '" + target.group + "' has no eps_/tau_ parameters in this scene");
    const std::string ek = "eps_" + target.group, tk = "tau_" + target.group;
    edits = {{ek, multiplierFor(ek, params.real("epsilon"), p.epsilon, params.real(ek))},
             {tk, multiplierFor(tk, params.real("tau"), p.tau, params.real(tk))}};
  } else {
    // Same ranges as the global parameters, so a constraint cannot be given what the panel forbids.
    const std::string name = scene.constraintStatus(target.constraint).name;
    for (const auto& [key, value] : {std::pair<const char*, double>{"epsilon", p.epsilon}, {"tau", p.tau}})
      if (const auto error = validateParam(*params.spec(key), ParamValue{{value}, {}}))
        throw BadInput("constraint " + name + ": " + key + " = " + num(value) + ": " + *error);
    scene.setConstraintRelaxation(target.constraint, p.epsilon, p.tau);
    return;
  }
  for (const auto& [key, value] : edits)
    if (const auto error = validateParam(*params.spec(key), ParamValue{{value}, {}}))
      throw BadInput("parameter '" + key + "' = " + num(value) + ": " + *error);
  // Validated; if the scene still refuses the second key, put the first back so nothing changed.
  const double before = params.real(edits[0].first);
  driver.setParam(edits[0].first, ParamValue{{edits[0].second}, {}});
  try {
    driver.setParam(edits[1].first, ParamValue{{edits[1].second}, {}});
  } catch (const BadInput&) {
    driver.setParam(edits[0].first, ParamValue{{before}, {}});
    throw;
  }
}

std::vector<std::string> stabilityWarningLines(const RodScene& scene, const ParamSet& params, const std::set<int>& overrides) {
  std::vector<std::pair<std::string, std::string>> byText;  // warning → who, in first-seen order
  auto add = [&](const std::string& who, const SpookParameters& p) {
    const std::string w = spookStabilityWarning(p, scene.dt());
    if (w.empty()) return;
    for (auto& [text, names] : byText)
      if (text == w) {
        names += ", " + who;
        return;
      }
    byText.emplace_back(w, who);
  };
  for (const auto& g : tunableGroups(scene, params)) add(g, groupRelaxation(params, g));
  for (int i : overrides)
    if (i >= 0 && i < scene.constraintCount())
      add(scene.constraintStatus(i).name, targetRelaxation(scene, params, {RelaxationTarget::Kind::Constraint, "", i}));
  std::vector<std::string> lines;
  for (const auto& [text, names] : byText) lines.push_back(names + ": " + text);
  return lines;
}

GhostHealth ghostHealth(const RodScene::GhostStatus& ghost, double initialEnergy, double tolerance) {
  if (ghost.diverged) return GhostHealth::Diverged;
  const double allowed = tolerance * std::max(std::abs(initialEnergy), 1.0);
  return ghost.energy > initialEnergy + allowed ? GhostHealth::EnergyGrowth : GhostHealth::Running;
}

ConventionInfo conventionInfo(Convention c) {
  switch (c) {
    case Convention::SpringDamperPerMass: return {"spring/damper", "k/m [1/s^2]", "c/m [1/s]"};
    case Convention::OdeErpCfm: return {"ODE", "ERP", "CFM"};
    case Convention::MujocoSolref: return {"MuJoCo solref", "timeconst [s]", "dampratio"};
    case Convention::Box2dSoft: return {"Box2D soft", "hertz [Hz]", "zeta"};
  }
  return {"", "", ""};
}

static void requireMass(double mass) {
  if (!(mass > 0) || !std::isfinite(mass)) throw BadInput("effective mass = " + num(mass) + " kg: allowed (0, inf)");
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
  int best = -1;
  double bestAngle = maxAngle;
  for (int i : scene.system().jointConstraintIndices()) {
    const Eigen::Vector3d w = scene.jointPosition(i) - origin;
    const double along = w.dot(d);
    if (!(along > 0)) continue;
    const double angle = std::atan2((w - along * d).norm(), along);
    if (angle < bestAngle || (angle == bestAngle && best < 0)) best = i, bestAngle = angle;
  }
  return best;
}

ConstraintTrace::ConstraintTrace(size_t capacity) : data_(capacity) { data_.setSeries({"gap (m)", "force (N)"}); }

void ConstraintTrace::reset(int constraint) {
  constraint_ = constraint;
  data_.clear();
}

void ConstraintTrace::sample(double t, double violation, double force) {
  if (data_.size() > 0 && t <= data_.newestTime())
    data_.truncateAfter(std::nextafter(t, -std::numeric_limits<double>::infinity()));
  data_.push(t, {violation, force});
}

void ConstraintTrace::sample(const RodScene& scene) {
  if (constraint_ < 0 || constraint_ >= scene.constraintCount()) return;
  const RodScene::ConstraintStatus s = scene.constraintStatus(constraint_);
  sample(scene.time(), s.violation, s.force);
}

SpeedProfile speedProfile(const RodScene& scene) {
  SpeedProfile out;
  if (const auto* ladder = dynamic_cast<const LadderScene*>(&scene)) {
    const Eigen::VectorXd v = ladder->whiplashProfile();
    out.speeds.assign(v.data(), v.data() + v.size());
    out.axis = "link";
    return out;
  }
  for (size_t b = 0; b < scene.system().bodies().size(); ++b)
    out.speeds.push_back(scene.system().endSpeed(int(b), scene.state().v));
  return out;
}

void SpeedEnvelope::update(double t, const std::vector<double>& speeds) {
  if (t < lastT_ || speeds.size() != peak_.size()) {
    peak_.assign(speeds.size(), 0.0);
    peakTime_.assign(speeds.size(), t);
  }
  lastT_ = t;
  for (size_t k = 0; k < speeds.size(); ++k)
    if (speeds[k] > peak_[k]) peak_[k] = speeds[k], peakTime_[k] = t;
}

}  // namespace varsim
