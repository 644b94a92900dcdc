// Shared rod-scene machinery (see rod_scene.h).
#include "scenes/rods/rod_scene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "scenes/rods/rod_tuning.h"

namespace varsim {

RodScene::RodScene(const ParamSet& params, std::vector<std::string> groups) : Scene(params), groups_(std::move(groups)) {}

double RodScene::maxEpsilon() const {
  double e = 0;
  for (const auto& g : groups_) e = std::max(e, effectiveRelaxation(params_, g, nullptr, weight()).epsilon);
  return e;
}

void RodScene::initSimulation(RodSystem& system, BodyPoint trail, int tipBody, double massForConventions) {
  system_ = &system;
  joints_ = system.jointConstraintIndices();
  auto names = std::make_shared<std::vector<std::string>>();
  names->reserve(joints_.size());
  for (int j : joints_) names->push_back(system.constraints()[size_t(j)].name);
  jointNames_ = std::move(names);
  weight_ = rodWeight(system);  // before applyParams: maxEpsilon() below reads it
  totalMass_ = shortestRod_ = longestRod_ = 0;
  for (const auto& b : system.bodies()) {
    totalMass_ += b.mass;
    longestRod_ = std::max(longestRod_, b.length);
    if (b.isRod && (shortestRod_ == 0 || b.length < shortestRod_)) shortestRod_ = b.length;
  }
  trailPoint_ = trail;
  tipBody_ = tipBody;
  conventionMass_ = massForConventions;
  const StepperKind kind = parseStepperKind(params_.choice("stepper"));
  const SparseSolverKind solver = parseSparseSolverKind(params_.choice("solver"));
  const DivergenceLimits limits = rodLimits(system, maxEpsilon());
  const RodModelKind model =
      params_.spec("rod_model") ? parseRodModelKind(params_.choice("rod_model")) : RodModelKind::Director;
  const double maxTurn = params_.spec("max_turn") ? params_.real("max_turn") : 0.0;
  const double maxChord = effectiveMaxChord(params_, shortestRod_);
  const int relin = params_.spec("max_relinearise") ? int(params_.integer("max_relinearise")) : 0;
  main_ = std::make_unique<RodSimulation>(system, kind, solver, limits, model, maxTurn, maxChord, relin);
  initialEnergy_ = rodDiagnostics(system, main_->state).energy;
  if (params_.flag("ghosts"))
    for (StepperKind g : {StepperKind::Spook, StepperKind::Rk4Baumgarte, StepperKind::Rattle})
      if (g != kind && !(g == StepperKind::Rattle && system.hasNonholonomic()))
        ghosts_.push_back(std::make_unique<RodSimulation>(system, g, solver, limits, model, maxTurn, maxChord, relin));
  applyParams();
}

const RodDiagnostics& RodScene::mainDiagnostics() const {
  if (diagnosedVersion_ != stateVersion_) {
    diagnosed_ = rodDiagnostics(*system_, main_->state);
    diagnosedVersion_ = stateVersion_;
  }
  return diagnosed_;
}

void RodScene::applyParams() {
  system_->setGravity(params_.vec3("gravity"));
  ++stateVersion_;  // the potential energy follows gravity
  weight_ = rodWeight(*system_);
  weightTimesSize_ = 0.0;
  for (const auto& b : system_->bodies()) weightTimesSize_ += b.mass * system_->gravity().norm() * b.length;
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
  // The main simulation's solve on two threads where that pays (rod_scene_params.h); ghosts keep one.
  if (SpookStepper* s = main_->spook())
    s->setThreads(solverThreads(params_.spec("threads") ? params_.integer("threads") : 1, system_->bodies().size()));
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
  ++stateVersion_;
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

double RodScene::energyScale() const { return mainDiagnostics().kinetic + weightTimesSize_; }

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
  const RodDiagnostics& d = mainDiagnostics();
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
  saveStateInto(s);
  return s;
}

void RodScene::saveStateInto(std::vector<double>& out) const {
  size_t n = main_->stateSize();
  for (const auto& g : ghosts_) n += g->stateSize();
  out.clear();
  out.reserve(n);  // exactly: no regrowth copies, and the history ring's byte budget counts what is held
  main_->appendState(out);
  for (const auto& g : ghosts_) g->appendState(out);
}

void RodScene::loadState(const std::vector<double>& state) {
  ++stateVersion_;  // first: a refused state may have changed part of the main state
  size_t pos = main_->readState(state, 0);
  for (auto& g : ghosts_) pos = g->readState(state, pos);
  if (pos != state.size()) throw BadInput("rod scene state: expected " + std::to_string(pos) + " numbers, got " + std::to_string(state.size()));
  trail_.clear();
}

void RodScene::draw(DrawList& out) const {
  // The scene's extras first: they set the camera framing, which sizes the rods below.
  drawExtras(out);
  const double l = longestRod_ > 0 ? longestRod_ : 1.0;
  // About 1.5 px of radius at the framing distance (a whole 20-link ladder is framed from ~50 m,
  // where 0.04 l is half a pixel), but at most 0.15 l so the ladder's rails stay apart. Drawing only.
  const double framed = std::isfinite(out.camera.distance) ? 0.0028 * out.camera.distance : 0.0;
  const float radius = float(std::clamp(framed, 0.04 * l, 0.15 * l));
  const double speedScale = 50.0;  // m/s at full red (log scale); whiplash reaches tens of m/s
  for (const auto& g : ghosts_) drawRods(*system_, g->state, out, true, speedScale, radius);
  drawRods(*system_, main_->state, out, false, speedScale, radius);
  if (joints_.size() <= 2000) drawJointSpheres(*system_, main_->state, out, 1.4f * radius, false);
  if (params_.flag("trails") && trail_.size() > 1) {
    LineStrip strip;
    strip.color = {1.0f, 0.55f, 0.1f, 0.9f};
    for (const auto& p : trail_) strip.points.push_back({float(p.x()), float(p.y()), float(p.z())});
    out.lines.push_back(std::move(strip));
  }
  // HUD: what to watch while it swings (at most three lines here, under the scene's own). Solver
  // cost, conventions and the full stability warning are in the SPOOK tuning panel.
  const RodDiagnostics& d = mainDiagnostics();
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
  if (!stabilityWarning().empty()) out.hud.push_back("WARNING: eps, tau outside what was measured to work (SPOOK tuning)");
  if (!subStepWarning().empty()) out.hud.push_back("WARNING: no sub-steps (max_chord = 0): whips diverged at N >= 150");
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
  for (int i : joints_) {
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
  for (const std::string& line : stabilityWarningLines(*this)) w += (w.empty() ? "" : "; ") + line;
  return w;
}

std::string RodScene::parameterWarning() const {
  const std::string a = stabilityWarning(), b = subStepWarning();
  return a.empty() || b.empty() ? a + b : a + "; " + b;
}

// `varsim run … --set max_chord=0 --duration 60` (max_turn 0 by default): the ladder N = 150 and 1000 and the chain of
// 1000 rods diverged at 4.9, 3.3 and 8.6 s (a joint 10 m open); the ladder N = 20 and the chain of 20 ran 60 s.
std::string RodScene::subStepWarning() const {
  if (!main_->rigid() || !params_.spec("max_chord") || !params_.spec("max_turn")) return "";
  if (params_.real("max_chord") > 0 || params_.real("max_turn") > 0) return "";
  return "max_chord = 0 and max_turn = 0: no sub-steps, every whipping step is one linearised solve (the ladder N = 150 "
         "and 1000 and the chain of 1000 rods diverged at 4.9, 3.3 and 8.6 s in the measured runs; the default "
         "max_chord is 1e-4 m)";
}

// The compliance stretch ε W at the pins, measured as the largest joint gap over 20 s (`varsim run … --duration 20`,
// rigid rods): ladder N = 1000 at rod_mass 1e6 kg, ε W = 2.9 m, gap 2.66 m; chain of 1000 at rod_mass 1e6, 0.98 m,
// gap 1.85 m (swinging); at the defaults 3e-5 (ladder N = 1000) and 2.5e-7 m (chain of 1000), gaps ≤ 6.4e-4 m.
// 1 % of a rod is the issue-16 gap bound (1e-2 m) on the 1 m ladder rods.
constexpr double kStretchWarning = 0.01;

// ε = 0 on every joint row of a ladder is refused at the start (ladder_scene.cpp validateLadderStart; measured with
// `varsim run ladder --set epsilon=0 --duration 60`: N = 20, 100, 300, 500 and 1000 stopped after 58, 35, 24, 29 and
// 13 s, ε = 1e-16 ran 60 s). One constraint's override at ε = 0 leaves its neighbours regularised, and a chain has no
// loop: both stay silent.
std::string RodScene::relaxationWarning(const std::string& group, const SpookParameters& p) const {
  const bool rigid = main_->rigid();
  if (rigid && group == "unit") return "";  // rigid rods have no unit-length rows: nothing to warn about
  std::string w = spookStabilityWarning(p, dt(), !rigid);
  if (group == "joints" || group == "pins") {
    const double weight = totalMass_ * params_.vec3("gravity").norm(), open = p.epsilon * weight;
    if (shortestRod_ > 0 && open > kStretchWarning * shortestRod_) {
      char buf[320];
      std::snprintf(buf, sizeof buf,
                    "epsilon = %.3g m/N: a joint stands open by epsilon times its force, and the pins hold the whole "
                    "weight %.3g N: %.3g m at rest, %.3g %% of a rod (%.3g m); lower epsilon or the masses",
                    p.epsilon, weight, open, 100 * open / shortestRod_, shortestRod_);
      w += (w.empty() ? "" : "; ") + std::string(buf);
    }
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
