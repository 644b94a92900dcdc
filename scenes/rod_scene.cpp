// Shared rod-scene machinery (see rod_scene.h).
#include "scenes/rod_scene.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
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

const char* rodModelName(RodModelKind kind) { return kind == RodModelKind::Rigid ? "rigid" : "director"; }

RodModelKind parseRodModelKind(const std::string& name) {
  if (name == "rigid") return RodModelKind::Rigid;
  if (name == "director") return RodModelKind::Director;
  throw BadInput("rod_model '" + name + "' is not allowed; one of: rigid, director");
}

RodSimulation::RodSimulation(const RodSystem& system, StepperKind kind, SparseSolverKind solver, DivergenceLimits limits,
                             RodModelKind model, double maxTurn, double maxChord, int maxRelinearise)
    : state(system.initialState()), system_(system), kind_(kind) {
  if (kind == StepperKind::Spook && model == RodModelKind::Rigid) {
    rigid_ = std::make_unique<RigidRodSpook>(system, SpookConfig{solver, limits}, maxTurn, maxChord);
    rigid_->setRelinearise(maxRelinearise);
  } else if (kind == StepperKind::Spook) spook_ = std::make_unique<SpookStepper>(system, SpookConfig{solver, limits});
  else if (kind == StepperKind::Rk4Baumgarte) rk4_ = std::make_unique<Rk4Baumgarte>(system, BaumgarteConfig{10.0, 1.0, limits});
  else rattle_ = std::make_unique<Rattle>(system, RattleConfig{1e-10, 25, limits});
}

void RodSimulation::setLimits(const DivergenceLimits& limits) {
  if (SpookStepper* s = spook()) s->setLimits(limits);
  if (rk4_) {
    BaumgarteConfig c{10.0, 1.0, limits};
    rk4_->setConfig(c);
  }
  (void)system_;
}

void RodSimulation::step(double h) {
  const auto start = SteadyClock::now();
  if (rigid_) rigid_->step(state, h);
  else if (spook_) spook_->step(state, h);
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
  out.insert(out.end(), {state.t, double(state.step), diverged ? 1.0 : 0.0, divergedAt, energyGrowthAt});
  out.insert(out.end(), state.q.data(), state.q.data() + state.q.size());
  out.insert(out.end(), state.v.data(), state.v.data() + state.v.size());
}

size_t RodSimulation::readState(const std::vector<double>& in, size_t pos) {
  const size_t n = size_t(state.q.size());
  const size_t head = 5;  // t, step, diverged, divergedAt, energyGrowthAt
  if (in.size() < pos + head + 2 * n)
    throw BadInput("rod scene state: expected at least " + std::to_string(pos + head + 2 * n) + " numbers");
  state.t = in[pos];
  state.step = long(in[pos + 1]);
  diverged = in[pos + 2] != 0.0;
  divergedAt = in[pos + 3];
  energyGrowthAt = in[pos + 4];
  if (!diverged) message.clear();
  state.q = Eigen::Map<const Eigen::VectorXd>(in.data() + pos + head, long(n));
  state.v = Eigen::Map<const Eigen::VectorXd>(in.data() + pos + head + n, long(n));
  return pos + head + 2 * n;
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

SpookParameters effectiveRelaxation(const ParamSet& params, const std::string& group, const ConstraintRelaxation* override) {
  if (override) return {override->epsilon, override->tau};
  SpookParameters p{params.real("epsilon"), params.real("tau")};
  if (params.spec("eps_" + group)) p.epsilon *= params.real("eps_" + group);
  if (params.spec("tau_" + group)) p.tau *= params.real("tau_" + group);
  return p;
}

void applyRelaxation(SpookStepper& spook, const RodSystem& system, const ParamSet& params,
                     const std::map<int, ConstraintRelaxation>& overrides) {
  const auto names = system.groupNames();
  const double gamma = params.spec("gamma") ? params.real("gamma") : 1e-8;
  for (size_t gi = 0; gi < names.size(); ++gi) {
    const SpookParameters p = effectiveRelaxation(params, names[gi]);
    spook.setGroupRelaxation(int(gi), {p.epsilon, p.tau, gamma});
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

// A frame with z along u placed at x; the turn about u is free (a capsule is round), so the
// branchless orthonormal basis of Duff et al. (JCGT 2017) replaces a quaternion between two
// vectors: this runs for every rod of every frame (15 001 rods at N = 5000).
static Mat4 rodTransform(const Eigen::Vector3d& x, const Eigen::Vector3d& u) {
  const double length = u.norm();
  const Eigen::Vector3d n = length > 0 ? Eigen::Vector3d(u / length) : Eigen::Vector3d::UnitZ();
  const double sign = std::copysign(1.0, n.z()), a = -1.0 / (sign + n.z()), b = n.x() * n.y() * a;
  const Eigen::Vector3d t(1.0 + sign * n.x() * n.x() * a, sign * b, -sign * n.x()), s(b, sign + n.y() * n.y() * a, -n.y());
  return {float(t.x()), float(t.y()), float(t.z()), 0.0f, float(s.x()), float(s.y()), float(s.z()), 0.0f,
          float(n.x()), float(n.y()), float(n.z()), 0.0f, float(x.x()), float(x.y()), float(x.z()), 1.0f};
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
    item.kind = ShapeKind::Capsule;
    item.transform = rodTransform(x, u);
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

namespace varsim {

// The scenes' re-linearisations per sub-step (max_relinearise; chosen by bench_ladder_robust --relin).
constexpr long kRelineariseDefault = 4;

std::vector<ParamSpec> rodSceneParams(const std::vector<std::string>& groups, bool allowRattle, bool withGamma,
                                      const char* rodModel, const char* solver) {
  std::vector<std::string> steppers{"spook", "rk4_baumgarte"};
  if (allowRattle) steppers.push_back("rattle");
  std::vector<ParamSpec> p{
      ParamSpec::real("dt", 1.0 / 60, 0.0, 0.1, "s", "physics step h", true),
      ParamSpec::vector("gravity", {0, 0, -9.81}, -100, 100, "m/s^2", "gravity (world z up)").setLive(),
      ParamSpec::choice("stepper", "spook", steppers, "integrator: SPOOK (seed 001 eq. 29) or a baseline"),
      ParamSpec::choice("solver", solver, {"ldlt", "umfpack", "block"},
                        "SPOOK linear solver: LDL^T on the quasi-definite form, UMFPACK LU (the paper's) or the "
                        "block-tridiagonal Cholesky of J M^-1 J^T + D over the levels of the constraint graph (ladders, "
                        "chains: ~1.6x faster than LDL^T, same result to round-off)")
          .setLive(),
      ParamSpec::boolean("ghosts", false, "also run the other steppers as translucent ghosts (divergence shown)"),
      ParamSpec::boolean("trails", true, "trail of the tip").setLive(),
  };
  if (rodModel) {
    p.push_back(ParamSpec::choice("rod_model", rodModel, {"rigid", "director"},
                                  "SPOOK's rod: rigid body on R3 x S2 (length exact, joint rows only) or the paper's "
                                  "centre + director with the row u.u = 1 (seed 001 Sec. 6; its unit residual runs away "
                                  "when rods spin fast)"));
    p.push_back(ParamSpec::real("max_chord", 1e-4, 0.0, 0.1, "m",
                                "rigid rods: a sub-step whose joint linearisation missed a rod end by more than this is "
                                "redone shorter (adaptive sub-steps, down to dt/64; 0: off). The miss grows with the "
                                "change of a rod's rotation rate within the step (whiplash), not with the rate itself"));
    p.push_back(ParamSpec::integer("max_relinearise", kRelineariseDefault, 0, RigidRodSpook::kMaxRelinearise,
                                   "rigid rods: a sub-step that missed max_chord is first solved again with the joint "
                                   "rows linearised about the pose it reached, up to this many times (Newton on the rows "
                                   "at the end pose); one still missing is redone in sub-steps (0: sub-steps only)"));
    p.push_back(ParamSpec::real("max_turn", 0.0, 0.0, 3.14159265358979, "rad",
                                "rigid rods: also keep every sub-step's rotation of the fastest rod below this (0: off; "
                                "before max_chord existed 0.03 was needed for the gaps, at 2-7x the cost)"));
  }
  for (auto& r : relaxationParams(groups, 2.0 / 60, withGamma)) p.push_back(r);
  return p;
}

RodScene::RodScene(const ParamSet& params, std::vector<std::string> groups) : Scene(params), groups_(std::move(groups)) {}

double RodScene::maxEpsilon() const {
  double e = 0;
  for (const auto& g : groups_) e = std::max(e, effectiveRelaxation(params_, g).epsilon);
  return e;
}

void RodScene::initSimulation(RodSystem& system, BodyPoint trail, int tipBody, double massForConventions) {
  system_ = &system;
  trailPoint_ = trail;
  tipBody_ = tipBody;
  conventionMass_ = massForConventions;
  const StepperKind kind = parseStepperKind(params_.choice("stepper"));
  const SparseSolverKind solver = parseSparseSolverKind(params_.choice("solver"));
  const DivergenceLimits limits = rodLimits(system, maxEpsilon());
  const RodModelKind model =
      params_.spec("rod_model") ? parseRodModelKind(params_.choice("rod_model")) : RodModelKind::Director;
  const double maxTurn = params_.spec("max_turn") ? params_.real("max_turn") : 0.0;
  const double maxChord = params_.spec("max_chord") ? params_.real("max_chord") : 0.0;
  const int relin = params_.spec("max_relinearise") ? int(params_.integer("max_relinearise")) : 0;
  main_ = std::make_unique<RodSimulation>(system, kind, solver, limits, model, maxTurn, maxChord, relin);
  initialEnergy_ = rodDiagnostics(system, main_->state).energy;
  if (params_.flag("ghosts"))
    for (StepperKind g : {StepperKind::Spook, StepperKind::Rk4Baumgarte, StepperKind::Rattle})
      if (g != kind && !(g == StepperKind::Rattle && system.hasNonholonomic()))
        ghosts_.push_back(std::make_unique<RodSimulation>(system, g, solver, limits, model, maxTurn, maxChord, relin));
  applyParams();
}

void RodScene::applyParams() {
  system_->setGravity(params_.vec3("gravity"));
  const DivergenceLimits limits = rodLimits(*system_, maxEpsilon());
  const SparseSolverKind solver = parseSparseSolverKind(params_.choice("solver"));
  auto configure = [&](RodSimulation& sim) {
    sim.setLimits(limits);
    if (SpookStepper* s = sim.spook()) {
      s->setSolver(solver);
      applyRelaxation(*s, *system_, params_, overrides_);
    }
  };
  configure(*main_);
  for (auto& g : ghosts_) configure(*g);
  if (!params_.flag("trails")) trail_.clear();
}

void RodScene::applyLive(const ParamSet& params) {
  params_ = params;
  applyParams();
}

void RodScene::step(double h, const InputVector&) {
  lastH_ = h;
  main_->step(h);  // throws SimulationDiverged with the state kept
  // Ghosts: a divergence freezes one; the first energy growth above E(0) is latched (ghostHealth).
  const double allowed = 1e-3 * std::max(std::abs(initialEnergy_), 1.0);
  for (auto& g : ghosts_) {
    g->stepOrFreeze(h);
    if (!g->diverged && g->energyGrowthAt < 0 && rodDiagnostics(*system_, g->state).energy > initialEnergy_ + allowed)
      g->energyGrowthAt = g->state.t;
  }
  if (params_.flag("trails")) {
    trail_.push_back(system_->point(trailPoint_, main_->state.q));
    while (trail_.size() > 600) trail_.pop_front();
  }
}

double RodScene::energyScale() const {
  double weightTimesSize = 0.0;
  for (const auto& b : system_->bodies()) weightTimesSize += b.mass * system_->gravity().norm() * b.length;
  return system_->kineticEnergy(main_->state.v) + weightTimesSize;
}

std::vector<std::string> RodScene::columns() const {
  std::vector<std::string> c{"t",        "energy",  "constraint_rms", "constraint_max", "max_speed",
                             "solve_us", "step_us", "unit_rms",       "unit_max",       "kinetic",
                             "potential", "factor_nnz", "tip_speed"};
  extraColumns(c);
  for (const auto& g : ghosts_) {
    const std::string n = std::string("ghost_") + stepperName(g->kind());
    for (const char* s : {"_energy", "_constraint_rms", "_diverged"}) c.push_back(n + s);
  }
  return c;
}

void RodScene::diagnostics(std::vector<double>& row) const {
  const RodDiagnostics d = rodDiagnostics(*system_, main_->state);
  const SpookProfile* p = profile();
  // Baselines: solve_us is their whole step (every stage is a solve), factor_nnz 0.
  row = {main_->state.t, d.energy, d.constraintRms, d.constraintMax, d.maxSpeed,
         p ? p->factorUs + p->solveUs : main_->lastStepUs(), main_->lastStepUs(), d.unitRms, d.unitMax,
         d.kinetic, d.potential, p ? double(p->factorNnz) : 0.0, system_->endSpeed(tipBody_, main_->state.v)};
  extraDiagnostics(row);
  for (const auto& g : ghosts_) {
    const RodDiagnostics gd = rodDiagnostics(*system_, g->state);
    row.insert(row.end(), {gd.energy, gd.constraintRms, g->diverged ? 1.0 : 0.0});
  }
}

std::vector<double> RodScene::saveState() const {
  std::vector<double> s;
  main_->appendState(s);
  for (const auto& g : ghosts_) g->appendState(s);
  return s;
}

void RodScene::loadState(const std::vector<double>& state) {
  size_t pos = main_->readState(state, 0);
  for (auto& g : ghosts_) pos = g->readState(state, pos);
  if (pos != state.size()) throw BadInput("rod scene state: expected " + std::to_string(pos) + " numbers, got " + std::to_string(state.size()));
  trail_.clear();
}

void RodScene::draw(DrawList& out) const {
  // The scene's extras first: they set the camera framing, which sizes the rods below.
  drawExtras(out);
  double maxLength = 0.0;
  for (const auto& b : system_->bodies()) maxLength = std::max(maxLength, b.length);
  const double l = maxLength > 0 ? maxLength : 1.0;
  // About 1.5 px of radius at the framing distance (a whole 20-link ladder is framed from ~50 m,
  // where 0.04 l is half a pixel), but at most 0.15 l so the ladder's rails stay apart. Drawing only.
  const double framed = std::isfinite(out.camera.distance) ? 0.0028 * out.camera.distance : 0.0;
  const float radius = float(std::clamp(framed, 0.04 * l, 0.15 * l));
  const double speedScale = 50.0;  // m/s at full red (log scale); whiplash reaches tens of m/s
  for (const auto& g : ghosts_) drawRods(*system_, g->state, out, true, speedScale, radius);
  drawRods(*system_, main_->state, out, false, speedScale, radius);
  if (system_->jointConstraintIndices().size() <= 2000) drawJointSpheres(*system_, main_->state, out, 1.4f * radius, false);
  if (params_.flag("trails") && trail_.size() > 1) {
    LineStrip strip;
    strip.color = {1.0f, 0.55f, 0.1f, 0.9f};
    for (const auto& p : trail_) strip.points.push_back({float(p.x()), float(p.y()), float(p.z())});
    out.lines.push_back(std::move(strip));
  }
  // HUD: what to watch while it swings (at most three lines here, under the scene's own). Solver
  // cost, conventions and the full stability warning are in the SPOOK tuning panel.
  const RodDiagnostics d = rodDiagnostics(*system_, main_->state);
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s: E = %.6g J, gap rms %.1e m, v max %.3g m/s", stepperName(main_->kind()), d.energy,
                d.constraintRms, d.maxSpeed);
  out.hud.push_back(buf);
  std::string ghostLine;
  for (const auto& g : ghosts()) {
    std::snprintf(buf, sizeof buf, g.diverged ? "%s DIVERGED %.3g s" : "%s running", g.stepper.c_str(), g.divergedAt);
    ghostLine += (ghostLine.empty() ? "ghosts: " : ", ") + std::string(buf);
  }
  if (!ghostLine.empty()) out.hud.push_back(ghostLine);
  if (!stabilityWarning().empty()) out.hud.push_back("WARNING: eps, tau outside the stable region (SPOOK tuning)");
}

std::vector<PlotSpec> RodScene::plots() const {
  std::vector<PlotSpec> p{{"Energy (J)", {"energy", "kinetic", "potential"}, false},
                          {"Joint gap (m)", {"constraint_rms", "constraint_max"}, true},
                          {"Unit-length residual", {"unit_rms", "unit_max"}, true},
                          {"Speed (m/s)", {"max_speed", "tip_speed"}, false},
                          {"Step time (us)", {"solve_us", "step_us"}, false}};
  if (!ghosts_.empty()) {
    PlotSpec e{"Ghost energy (J)", {"energy"}, false}, v{"Ghost joint gap (m)", {"constraint_rms"}, true};
    for (const auto& g : ghosts_) {
      e.columns.push_back(std::string("ghost_") + stepperName(g->kind()) + "_energy");
      v.columns.push_back(std::string("ghost_") + stepperName(g->kind()) + "_constraint_rms");
    }
    p.push_back(e);
    p.push_back(v);
  }
  return p;
}

RodScene::ConstraintStatus RodScene::constraintStatus(int i) const {
  const ConstraintDesc& c = system_->constraints().at(size_t(i));
  ConstraintStatus s;
  s.name = c.name;
  s.group = c.group;
  s.violation = system_->constraintViolation(i, main_->state.q, main_->state.v, main_->state.t);
  if (const SpookStepper* sp = main_->spook()) {
    s.force = sp->multipliers().segment(sp->rowOffset(i), sp->rowCount(i)).norm() / lastH();
    s.relaxation = sp->relaxation(i);
  }
  s.overridden = overrides_.count(i) > 0;
  return s;
}

std::vector<RodScene::ConstraintStatus> RodScene::constraintList() const {
  std::vector<ConstraintStatus> out;
  for (int i = 0; i < constraintCount(); ++i) out.push_back(constraintStatus(i));
  return out;
}

void RodScene::setConstraintRelaxation(int i, double epsilon, double tau) {
  if (i < 0 || i >= constraintCount())
    throw BadInput("constraint " + std::to_string(i) + " does not exist; allowed [0, " + std::to_string(constraintCount() - 1) + "]");
  const ConstraintRelaxation r{epsilon, tau, params_.spec("gamma") ? params_.real("gamma") : 1e-8};
  if (SpookStepper* s = main_->spook()) s->setRelaxation(i, r);  // validates (BadInput)
  overrides_[i] = r;
  applyParams();
}

void RodScene::clearConstraintRelaxation(int i) {
  overrides_.erase(i);
  applyParams();
}

// Per-constraint overrides as Scene edits (recorded as events, restored from history).
void RodScene::applyEdit(const std::string& key, const std::string& value) {
  const std::string prefix = "relax.";
  const std::string what = "edit '" + key + "'";
  if (key.compare(0, prefix.size(), prefix) != 0)
    throw BadInput(what + ": unknown edit; allowed: relax.<constraint index> = <eps>,<tau> (empty value clears)");
  const NumberText index = parseNumber(std::string_view(key).substr(prefix.size()));
  const std::string allowed = "[0, " + std::to_string(constraintCount() - 1) + "]";
  if (!index.ok || index.value != std::floor(index.value) || index.value < 0 || index.value >= constraintCount())
    throw BadInput(what + ": constraint index must be an integer in " + allowed);
  const int i = int(index.value);
  if (value.empty()) return clearConstraintRelaxation(i);
  const size_t comma = value.find(',');
  if (comma == std::string::npos)
    throw BadInput(what + " = '" + value + "': expected <eps>,<tau> (or an empty value to clear)");
  double numbers[2];
  const std::string parts[2] = {value.substr(0, comma), value.substr(comma + 1)};
  const char* keys[2] = {"epsilon", "tau"};
  for (int p = 0; p < 2; ++p) {
    const NumberText n = parseNumber(parts[p]);
    if (!n.ok) throw BadInput(what + ": " + keys[p] + ": " + n.error);
    if (auto error = validateParam(*params_.spec(keys[p]), ParamValue{{n.value}, {}}))
      throw BadInput(what + ": " + keys[p] + " = " + parts[p] + ": " + *error);
    numbers[p] = n.value;
  }
  setConstraintRelaxation(i, numbers[0], numbers[1]);
}

std::vector<std::pair<std::string, std::string>> RodScene::edits() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [i, r] : overrides_)
    out.emplace_back("relax." + std::to_string(i), formatNumber(r.epsilon) + "," + formatNumber(r.tau));
  return out;
}

void RodScene::clearEdits() {
  overrides_.clear();
  applyParams();
}

Eigen::Vector3d RodScene::jointPosition(int i) const { return system_->point(system_->anchor(i), main_->state.q); }

int RodScene::nearestJoint(const Eigen::Vector3d& point, double maxDistance) const {
  int best = -1;
  double bestD = maxDistance;
  for (int i : system_->jointConstraintIndices()) {
    const double d = (jointPosition(i) - point).norm();
    if (d <= bestD) best = i, bestD = d;
  }
  return best;
}

std::vector<std::string> RodScene::conventionLines() const {
  const SpookParameters sp{params_.real("epsilon"), params_.real("tau")};
  const double h = dt();
  char buf[220];
  std::vector<std::string> lines;
  std::snprintf(buf, sizeof buf, "eps=%.3g  tau=%.4g s = %.3g h  (h=%.4g s)", sp.epsilon, sp.tau, sp.tau / h, h);
  lines.push_back(buf);
  const OdeErpCfm ode = toOde(sp, h);
  std::snprintf(buf, sizeof buf, "ODE: ERP=%.4g CFM=%.3g", ode.erp, ode.cfm);
  lines.push_back(buf);
  if (sp.epsilon > 0 && sp.tau > 0) {
    const SpringDamper k = toSpringDamper(sp);
    const MujocoSolref mj = toMujoco(sp, conventionMass_);
    const Box2dSoft b2 = toBox2d(sp, conventionMass_);
    std::snprintf(buf, sizeof buf, "spring k=%.3g N/m damper c=%.3g N s/m | on m=%g kg: MuJoCo tc=%.3g dr=%.3g, Box2D %.3g Hz zeta=%.3g",
                  k.k, k.c, conventionMass_, mj.timeconst, mj.dampratio, b2.hertz, b2.zeta);
    lines.push_back(buf);
  }
  return lines;
}

std::string RodScene::stabilityWarning() const {
  std::string w;
  for (const auto& g : groups_) {
    const std::string s = spookStabilityWarning(effectiveRelaxation(params_, g), dt());
    if (!s.empty()) w += (w.empty() ? "" : "; ") + g + ": " + s;
  }
  for (const auto& [i, r] : overrides_) {
    const std::string s = spookStabilityWarning(effectiveRelaxation(params_, "", &r), dt());
    if (!s.empty()) w += (w.empty() ? "" : "; ") + system_->constraints()[size_t(i)].name + ": " + s;
  }
  return w;
}

std::string RodScene::rodModelSummary() const {
  if (!main_->spook()) return "";
  if (!main_->rigid()) return "rod model: director (x, u) with the row u.u = 1 (seed 001 Sec. 6)";
  return "rod model: rigid (R3 x S2, length exact), " + std::to_string(main_->lastSubSteps()) + " sub-step(s), " +
         std::to_string(main_->lastRelinearisations()) + " re-linearisation(s) last step (" +
         std::to_string(main_->lastSolves()) + " solves)";
}

const SpookProfile* RodScene::profile() const { return main_->spook() ? &main_->spook()->profile() : nullptr; }

std::vector<RodScene::GhostStatus> RodScene::ghosts() const {
  std::vector<GhostStatus> out;
  for (const auto& g : ghosts_) {
    const RodDiagnostics d = rodDiagnostics(*system_, g->state);
    out.push_back({stepperName(g->kind()), g->diverged, g->divergedAt, g->message, d.energy, d.constraintRms, g->energyGrowthAt});
  }
  return out;
}

}  // namespace varsim
