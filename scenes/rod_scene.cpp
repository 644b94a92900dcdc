// Shared rod-scene machinery (see rod_scene.h).
#include "scenes/rod_scene.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

#include "engine/sim/errors.h"
#include "scenes/vehicle_drawing.h"

namespace varsim {

const char* stepperName(StepperKind kind) {
  switch (kind) {
    case StepperKind::Spook: return "spook";
    case StepperKind::Rk4Baumgarte: return "rk4_baumgarte";
    case StepperKind::Rattle: return "rattle";
  }
  return "spook";
}

StepperKind parseStepperKind(const std::string& name) {
  if (name == "spook") return StepperKind::Spook;
  if (name == "rk4_baumgarte") return StepperKind::Rk4Baumgarte;
  if (name == "rattle") return StepperKind::Rattle;
  throw BadInput("stepper '" + name + "' is not allowed; one of: spook, rk4_baumgarte, rattle");
}

RodSimulation::RodSimulation(const RodSystem& system, StepperKind kind, SparseSolverKind solver, DivergenceLimits limits)
    : state(system.initialState()), system_(system), kind_(kind) {
  if (kind == StepperKind::Spook) spook_ = std::make_unique<SpookStepper>(system, SpookConfig{solver, limits});
  else if (kind == StepperKind::Rk4Baumgarte) rk4_ = std::make_unique<Rk4Baumgarte>(system, BaumgarteConfig{10.0, 1.0, limits});
  else rattle_ = std::make_unique<Rattle>(system, RattleConfig{1e-10, 25, limits});
}

void RodSimulation::setLimits(const DivergenceLimits& limits) {
  if (spook_) spook_->setLimits(limits);
  if (rk4_) {
    BaumgarteConfig c{10.0, 1.0, limits};
    rk4_->setConfig(c);
  }
  (void)system_;
}

void RodSimulation::step(double h) {
  const auto start = SteadyClock::now();
  if (spook_) spook_->step(state, h);
  else if (rk4_) rk4_->step(state, h);
  else rattle_->step(state, h);
  lastStepUs_ = microsecondsSince(start);
}

void RodSimulation::stepOrFreeze(double h) {
  if (diverged) return;
  try {
    step(h);
  } catch (const SimulationDiverged& e) {
    diverged = true;
    divergedAt = state.t;
    message = e.what();
  }
}

void RodSimulation::appendState(std::vector<double>& out) const {
  out.insert(out.end(), {state.t, double(state.step), diverged ? 1.0 : 0.0, divergedAt});
  out.insert(out.end(), state.q.data(), state.q.data() + state.q.size());
  out.insert(out.end(), state.v.data(), state.v.data() + state.v.size());
}

size_t RodSimulation::readState(const std::vector<double>& in, size_t pos) {
  const size_t n = size_t(state.q.size());
  if (in.size() < pos + 4 + 2 * n) throw BadInput("rod scene state: expected at least " + std::to_string(pos + 4 + 2 * n) + " numbers");
  state.t = in[pos];
  state.step = long(in[pos + 1]);
  diverged = in[pos + 2] != 0.0;
  divergedAt = in[pos + 3];
  if (!diverged) message.clear();
  state.q = Eigen::Map<const Eigen::VectorXd>(in.data() + pos + 4, long(n));
  state.v = Eigen::Map<const Eigen::VectorXd>(in.data() + pos + 4 + n, long(n));
  return pos + 4 + 2 * n;
}

std::vector<ParamSpec> relaxationParams(const std::vector<std::string>& groups, double defaultTau, bool withGamma) {
  std::vector<ParamSpec> p;
  p.push_back(ParamSpec::real("epsilon", 1e-8, 0.0, 1.0, "m/N",
                              "SPOOK regularisation ε (compliance) of every holonomic row; 0 only without redundant constraints")
                  .setLive()
                  .setLog());
  p.push_back(ParamSpec::real("tau", defaultTau, 0.0, 10.0, "s",
                              "SPOOK stabilisation time τ in seconds (default 2h at dt = 1/60). It stays fixed in seconds "
                              "when dt changes, so τ/h changes with it (dt = 1/120 makes the default 4h)")
                  .setLive());
  if (withGamma)
    p.push_back(ParamSpec::real("gamma", 1e-8, 0.0, 1.0, "s/kg", "SPOOK relaxation γ of the nonholonomic rows (Γ = γ/h)")
                    .setLive()
                    .setLog());
  for (const auto& g : groups) {
    p.push_back(ParamSpec::real("eps_" + g, 1.0, 0.0, 1e8, "", "multiplier of epsilon for the " + g + " rows").setLive().setLog());
    p.push_back(ParamSpec::real("tau_" + g, 1.0, 0.0, 100.0, "", "multiplier of tau for the " + g + " rows").setLive());
  }
  return p;
}

void applyRelaxation(SpookStepper& spook, const RodSystem& system, const ParamSet& params,
                     const std::vector<std::string>& groups, const std::map<int, ConstraintRelaxation>& overrides) {
  const auto names = system.groupNames();
  const double gamma = params.spec("gamma") ? params.real("gamma") : 1e-8;
  for (size_t gi = 0; gi < names.size(); ++gi) {
    ConstraintRelaxation r{params.real("epsilon"), params.real("tau"), gamma};
    if (std::find(groups.begin(), groups.end(), names[gi]) != groups.end()) {
      r.epsilon *= params.real("eps_" + names[gi]);
      r.tau *= params.real("tau_" + names[gi]);
    }
    spook.setGroupRelaxation(int(gi), r);
  }
  for (const auto& [i, r] : overrides) spook.setRelaxation(i, r);
}

DivergenceLimits rodLimits(const RodSystem& system, double maxEpsilon) {
  double weight = 0.0;
  for (const auto& b : system.bodies()) weight += b.mass * system.gravity().norm();
  DivergenceLimits limits;
  limits.maxViolation = std::max(limits.maxViolation, 10.0 * maxEpsilon * weight);
  return limits;
}

Rgba speedColor(double speed, double fullScale) {
  const double s = std::clamp(std::log1p(std::max(speed, 0.0)) / std::log1p(std::max(fullScale, 1e-9)), 0.0, 1.0);
  return Rgba{float(0.15 + 0.85 * s), float(0.35 * (1.0 - std::abs(2.0 * s - 1.0)) + 0.2), float(0.95 * (1.0 - s) + 0.05), 1.0f};
}

Mat4 translation(const Eigen::Vector3d& p) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.translation() = p;
  return toMat4(T);
}

void drawRods(const RodSystem& system, const MechanicalState& state, DrawList& out, bool ghost, double speedScale,
              float radius) {
  const auto& bodies = system.bodies();
  for (size_t b = 0; b < bodies.size(); ++b) {
    ShapeItem item;
    item.ghost = ghost;
    item.color = speedColor(system.endSpeed(int(b), state.v), speedScale);
    if (ghost) item.color.a = 0.35f;
    const Eigen::Vector3d x = state.q.segment<3>(bodies[b].offset);
    if (!bodies[b].isRod) {
      item.kind = ShapeKind::Sphere;
      item.size = {2.5f * radius, 2.5f * radius, 2.5f * radius};
      item.transform = translation(x);
      out.shapes.push_back(item);
      continue;
    }
    const Eigen::Vector3d u = system.direction(int(b), state.q);
    Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
    T.linear() = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), u.norm() > 0 ? u : Eigen::Vector3d::UnitZ())
                     .toRotationMatrix();
    T.translation() = x;
    item.kind = ShapeKind::Capsule;
    item.transform = toMat4(T);
    // The drawn length follows |u| so a stretched unit row is visible.
    item.size = {radius, radius, float(bodies[b].length * u.norm())};
    out.shapes.push_back(item);
  }
}

void drawJointSpheres(const RodSystem& system, const MechanicalState& state, DrawList& out, float radius, bool ghost) {
  for (int i : system.jointConstraintIndices()) {
    const bool pin = system.constraints()[size_t(i)].group == kGroupPins;
    ShapeItem s;
    s.kind = ShapeKind::Sphere;
    s.ghost = ghost;
    const float r = pin ? 2.2f * radius : radius;
    s.size = {r, r, r};
    s.color = pin ? Rgba{0.95f, 0.8f, 0.2f, ghost ? 0.35f : 1.0f} : Rgba{0.85f, 0.85f, 0.88f, ghost ? 0.35f : 1.0f};
    s.transform = translation(system.point(system.anchor(i), state.q));
    out.shapes.push_back(s);
  }
}

}  // namespace varsim
