// Rod system + stepper (see rod_simulation.h).
#include "scenes/rods/rod_simulation.h"

#include "engine/sim/errors.h"

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

double RodSimulation::lastSolvesUs() const {
  if (rigid_) return rigid_->lastSolvesUs();
  return spook_ ? spook_->profile().stepUs : lastStepUs_;
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
  if (rigid_) rigid_->appendState(out);  // the rigid stepper's carried joint forces (RigidRodSpook::saveState)
}

size_t RodSimulation::stateSize() const {
  return kStateHead + 2 * size_t(state.q.size()) + (rigid_ ? rigid_->stateSize() : 0);
}

size_t RodSimulation::readState(const std::vector<double>& in, size_t pos) {
  const size_t n = size_t(state.q.size());
  const size_t head = kStateHead;
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
  pos += head + 2 * n;
  if (!rigid_) return pos;
  const size_t extra = rigid_->stateSize();
  if (in.size() < pos + extra)
    throw BadInput("rod scene state: expected at least " + std::to_string(pos + extra) + " numbers");
  rigid_->loadState(std::vector<double>(in.begin() + long(pos), in.begin() + long(pos + extra)));
  return pos + extra;
}

std::vector<StateBlock> RodSimulation::stateBlocks() const {
  const long n = long(state.q.size());
  std::vector<StateBlock> out{
      {"q", state.q.data(), n, 1, 1, 1, "coordinates: per rod centre x (m) then unit direction u, per particle x (m)"},
      {"v", state.v.data(), n, 1, 1, 1, "their rates: m/s and 1/s"}};
  const std::vector<RodSystem::Body>& bodies = system_.bodies();
  bool rods = !bodies.empty() && n == 6 * long(bodies.size());
  for (size_t b = 0; b < bodies.size() && rods; ++b) rods = bodies[b].isRod && bodies[b].offset == 6 * int(b);
  if (!rods) return out;
  const long m = long(bodies.size());
  out.push_back(strided("x", state.q.data(), m, 3, 6, "rod centres (m, world), one row per rod"));
  out.push_back(strided("u", state.q.data() + 3, m, 3, 6, "rod unit directions, one row per rod"));
  out.push_back(strided("x_dot", state.v.data(), m, 3, 6, "centre velocities (m/s)"));
  out.push_back(strided("u_dot", state.v.data() + 3, m, 3, 6, "direction rates (1/s)"));
  return out;
}

}  // namespace varsim
