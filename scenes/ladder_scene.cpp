// Scene `ladder` (see ladder_scene.h): parameters, stepping with optional ghosts, CSV columns,
// drawing and the live-tuning accessors.
#include "scenes/ladder_scene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/sim/errors.h"

namespace varsim {

namespace {

const std::vector<std::string> kGroups = {"joints", "unit", "pins"};

std::vector<ParamSpec> ladderParams() {
  std::vector<ParamSpec> p{
      ParamSpec::integer("links", 20, 1, 1000, "number of ladder links N (3N+1 rods, 4N+1 joints, N loops)"),
      ParamSpec::real("dt", 1.0 / 60, 0.0, 0.1, "s", "physics step h", true),
      ParamSpec::vector("gravity", {0, 0, -9.81}, -100, 100, "m/s^2", "gravity (world z up; the ladder lies in the x-z plane)")
          .setLive(),
      ParamSpec::choice("stepper", "spook", {"spook", "rk4_baumgarte", "rattle"},
                        "integrator of the main ladder: SPOOK (seed 001 eq. 29) or a baseline"),
      ParamSpec::choice("solver", "ldlt", {"ldlt", "umfpack"},
                        "SPOOK linear solver: LDL^T on the quasi-definite form (fast) or UMFPACK LU (the paper's)")
          .setLive(),
      ParamSpec::boolean("ghosts", false, "also run the other steppers as translucent ghost ladders (divergence shown)"),
      ParamSpec::boolean("trails", true, "trail of the free end").setLive(),
      ParamSpec::real("rod_mass", 10.0, 0.0, 1e6, "kg", "mass of every rod (paper: 10)", true),
      ParamSpec::real("rod_length", 1.0, 0.0, 100.0, "m", "length of every rod (paper: 1)", true),
  };
  for (auto& r : relaxationParams(kGroups, 2.0 / 60, false)) p.push_back(r);
  return p;
}

double maxEpsilon(const ParamSet& p) {
  double e = 0;
  for (const auto& g : kGroups) e = std::max(e, p.real("epsilon") * p.real("eps_" + g));
  return e;
}

LadderConfig configFrom(const ParamSet& p) {
  LadderConfig c;
  c.links = int(p.integer("links"));
  c.rodMass = p.real("rod_mass");
  c.rodLength = p.real("rod_length");
  c.gravity = p.vec3("gravity");
  return c;
}

}  // namespace

LadderScene::LadderScene(const ParamSet& params) : Scene(params), ladder_(configFrom(params)) {
  const StepperKind kind = parseStepperKind(params.choice("stepper"));
  const SparseSolverKind solver = parseSparseSolverKind(params.choice("solver"));
  const DivergenceLimits limits = rodLimits(ladder_.system(), maxEpsilon(params));
  main_ = std::make_unique<RodSimulation>(ladder_.system(), kind, solver, limits);
  if (params.flag("ghosts"))
    for (StepperKind g : {StepperKind::Spook, StepperKind::Rk4Baumgarte, StepperKind::Rattle})
      if (g != kind) ghosts_.push_back(std::make_unique<RodSimulation>(ladder_.system(), g, solver, limits));
  applyParams();
}

void LadderScene::applyParams() {
  ladder_.system().setGravity(params_.vec3("gravity"));
  const DivergenceLimits limits = rodLimits(ladder_.system(), maxEpsilon(params_));
  const SparseSolverKind solver = parseSparseSolverKind(params_.choice("solver"));
  for (RodSimulation* sim : {main_.get()}) sim->setLimits(limits);
  for (auto& g : ghosts_) g->setLimits(limits);
  auto configure = [&](RodSimulation& sim) {
    if (SpookStepper* s = sim.spook()) {
      s->setSolver(solver);
      applyRelaxation(*s, ladder_.system(), params_, kGroups, overrides_);
    }
  };
  configure(*main_);
  for (auto& g : ghosts_) configure(*g);
  if (!params_.flag("trails")) trail_.clear();
}

void LadderScene::applyLive(const ParamSet& params) {
  params_ = params;
  applyParams();
}

void LadderScene::step(double h, const InputVector&) {
  lastH_ = h;
  main_->step(h);  // throws SimulationDiverged with the state kept
  for (auto& g : ghosts_) g->stepOrFreeze(h);
  if (params_.flag("trails")) {
    trail_.push_back(ladder_.system().point({ladder_.freeEndRod(), +1}, main_->state.q));
    while (trail_.size() > 600) trail_.pop_front();
  }
}

std::vector<std::string> LadderScene::columns() const {
  std::vector<std::string> c{"t",        "energy",  "constraint_rms", "constraint_max", "max_speed",
                             "solve_us", "step_us", "unit_rms",       "unit_max",       "kinetic",
                             "potential", "factor_nnz", "tip_speed"};
  for (const auto& g : ghosts_) {
    const std::string n = std::string("ghost_") + stepperName(g->kind());
    for (const char* s : {"_energy", "_constraint_rms", "_diverged"}) c.push_back(n + s);
  }
  return c;
}

void LadderScene::diagnostics(std::vector<double>& row) const {
  const RodSystem& sys = ladder_.system();
  const RodDiagnostics d = rodDiagnostics(sys, main_->state);
  const SpookProfile* p = profile();
  // Baselines: solve_us is their whole step (every stage is a solve), factor_nnz 0.
  row = {main_->state.t, d.energy, d.constraintRms, d.constraintMax, d.maxSpeed,
         p ? p->factorUs + p->solveUs : main_->lastStepUs(), main_->lastStepUs(), d.unitRms, d.unitMax,
         d.kinetic, d.potential, p ? double(p->factorNnz) : 0.0, sys.endSpeed(ladder_.freeEndRod(), main_->state.v)};
  for (const auto& g : ghosts_) {
    const RodDiagnostics gd = rodDiagnostics(sys, g->state);
    row.insert(row.end(), {gd.energy, gd.constraintRms, g->diverged ? 1.0 : 0.0});
  }
}

std::vector<double> LadderScene::saveState() const {
  std::vector<double> s;
  main_->appendState(s);
  for (const auto& g : ghosts_) g->appendState(s);
  return s;
}

void LadderScene::loadState(const std::vector<double>& state) {
  size_t pos = main_->readState(state, 0);
  for (auto& g : ghosts_) pos = g->readState(state, pos);
  if (pos != state.size()) throw BadInput("ladder state: expected " + std::to_string(pos) + " numbers, got " + std::to_string(state.size()));
  trail_.clear();
}

void LadderScene::draw(DrawList& out) const {
  const RodSystem& sys = ladder_.system();
  const double l = ladder_.config().rodLength;
  const float radius = float(0.04 * l);
  const double speedScale = 50.0;  // m/s at full red (log scale); whiplash reaches tens of m/s
  for (const auto& g : ghosts_)
    if (!g->diverged || g->state.q.allFinite()) drawRods(sys, g->state, out, true, speedScale, radius);
  drawRods(sys, main_->state, out, false, speedScale, radius);
  drawJointSpheres(sys, main_->state, out, 1.4f * radius, false);
  if (params_.flag("trails") && trail_.size() > 1) {
    LineStrip strip;
    strip.color = {1.0f, 0.55f, 0.1f, 0.9f};
    for (const auto& p : trail_) strip.points.push_back({float(p.x()), float(p.y()), float(p.z())});
    out.lines.push_back(std::move(strip));
  }
  const RodDiagnostics d = rodDiagnostics(sys, main_->state);
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s  N=%d  t=%.2f s  E=%.1f J  joint rms %.2e m  max speed %.1f m/s", stepperName(main_->kind()),
                ladder_.config().links, main_->state.t, d.energy, d.constraintRms, d.maxSpeed);
  out.hud.push_back(buf);
  if (const SpookProfile* p = profile()) {
    std::snprintf(buf, sizeof buf, "solve %.0f us (factor %.0f + solve %.0f), step %.0f us, factor nnz %ld", p->factorUs + p->solveUs,
                  p->factorUs, p->solveUs, p->stepUs, p->factorNnz);
    out.hud.push_back(buf);
  }
  for (const auto& g : ghosts()) {
    std::snprintf(buf, sizeof buf, "ghost %s: %s", g.stepper.c_str(),
                  g.diverged ? ("DIVERGED at t=" + std::to_string(g.divergedAt)).c_str() : "running");
    out.hud.push_back(buf);
  }
  for (const auto& line : conventionLines()) out.hud.push_back(line);
  if (const std::string w = stabilityWarning(); !w.empty()) out.hud.push_back("WARNING: " + w);
  const double N = ladder_.config().links;
  out.camera.target = {float(0.5 * N * l), 0.0f, float(-0.4 * N * l)};
  out.camera.distance = float(1.6 * N * l + 4.0 * l);
  out.camera.showGround = false;
}

std::vector<PlotSpec> LadderScene::plots() const {
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

LadderScene::ConstraintStatus LadderScene::constraintStatus(int i) const {
  const RodSystem& sys = ladder_.system();
  const ConstraintDesc& c = sys.constraints().at(size_t(i));
  ConstraintStatus s;
  s.name = c.name;
  s.group = c.group;
  s.violation = sys.constraintViolation(i, main_->state.q, main_->state.v, main_->state.t);
  if (const SpookStepper* sp = main_->spook()) {
    s.force = sp->multipliers().segment(sp->rowOffset(i), c.rows).norm() / lastH();
    s.relaxation = sp->relaxation(i);
  }
  s.overridden = overrides_.count(i) > 0;
  return s;
}

std::vector<LadderScene::ConstraintStatus> LadderScene::constraintList() const {
  std::vector<ConstraintStatus> out;
  for (int i = 0; i < constraintCount(); ++i) out.push_back(constraintStatus(i));
  return out;
}

void LadderScene::setConstraintRelaxation(int i, double epsilon, double tau) {
  if (i < 0 || i >= constraintCount())
    throw BadInput("ladder: constraint " + std::to_string(i) + " does not exist; allowed [0, " + std::to_string(constraintCount() - 1) + "]");
  const ConstraintRelaxation r{epsilon, tau, 1e-8};
  if (SpookStepper* s = main_->spook()) s->setRelaxation(i, r);  // validates (BadInput)
  overrides_[i] = r;
  applyParams();
}

void LadderScene::clearConstraintRelaxation(int i) {
  overrides_.erase(i);
  applyParams();
}

Eigen::Vector3d LadderScene::jointPosition(int i) const { return ladder_.system().point(ladder_.system().anchor(i), main_->state.q); }

int LadderScene::nearestJoint(const Eigen::Vector3d& point, double maxDistance) const {
  int best = -1;
  double bestD = maxDistance;
  for (int i : ladder_.system().jointConstraintIndices()) {
    const double d = (jointPosition(i) - point).norm();
    if (d <= bestD) best = i, bestD = d;
  }
  return best;
}

std::vector<std::string> LadderScene::conventionLines() const {
  const SpookParameters sp{params_.real("epsilon"), params_.real("tau")};
  const double h = dt();
  char buf[200];
  std::vector<std::string> lines;
  std::snprintf(buf, sizeof buf, "eps=%.3g  tau=%.4g s = %.3g h  (h=%.4g s)", sp.epsilon, sp.tau, sp.tau / h, h);
  lines.push_back(buf);
  const OdeErpCfm ode = toOde(sp, h);
  std::snprintf(buf, sizeof buf, "ODE: ERP=%.4g CFM=%.3g", ode.erp, ode.cfm);
  lines.push_back(buf);
  if (sp.epsilon > 0 && sp.tau > 0) {
    const SpringDamper k = toSpringDamper(sp);
    const double m = ladder_.config().rodMass;
    const MujocoSolref mj = toMujoco(sp, m);
    const Box2dSoft b2 = toBox2d(sp, m);
    std::snprintf(buf, sizeof buf, "spring k=%.3g N/m damper c=%.3g N s/m | on m=%g kg: MuJoCo tc=%.3g dr=%.3g, Box2D %.3g Hz zeta=%.3g",
                  k.k, k.c, m, mj.timeconst, mj.dampratio, b2.hertz, b2.zeta);
    lines.push_back(buf);
  }
  return lines;
}

std::string LadderScene::stabilityWarning() const {
  std::string w;
  for (const auto& g : kGroups) {
    const SpookParameters sp{params_.real("epsilon") * params_.real("eps_" + g), params_.real("tau") * params_.real("tau_" + g)};
    const std::string s = spookStabilityWarning(sp, dt());
    if (!s.empty()) w += (w.empty() ? "" : "; ") + g + ": " + s;
  }
  for (const auto& [i, r] : overrides_) {
    const std::string s = spookStabilityWarning({r.epsilon, r.tau}, dt());
    if (!s.empty()) w += (w.empty() ? "" : "; ") + ladder_.system().constraints()[size_t(i)].name + ": " + s;
  }
  return w;
}

const SpookProfile* LadderScene::profile() const { return main_->spook() ? &main_->spook()->profile() : nullptr; }

std::vector<LadderScene::GhostStatus> LadderScene::ghosts() const {
  std::vector<GhostStatus> out;
  for (const auto& g : ghosts_) {
    const RodDiagnostics d = rodDiagnostics(ladder_.system(), g->state);
    out.push_back({stepperName(g->kind()), g->diverged, g->divergedAt, g->message, d.energy, d.constraintRms});
  }
  return out;
}

VARSIM_REGISTER_SCENE(SceneInfo{
    "ladder", "SPOOK ladder whiplash",
    "The square ladder chain of Lacoursiere's SPOOK paper (seed 001 Sec. 6): 3N+1 rods of mass 10 kg and length 1 m, "
    "4N+1 ball joints, N closed loops, one corner pinned at the origin, released horizontally. SPOOK solves one sparse "
    "linear system per step; the whiplash at the free end reaches tens of m/s. Optional ghosts run RK4+Baumgarte and "
    "RATTLE side by side (both break down during whiplash at h = 1/60).",
    ladderParams, nullptr, [](const ParamSet& p) { return std::make_unique<LadderScene>(p); }});

}  // namespace varsim
