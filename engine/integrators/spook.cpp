// SPOOK step (see spook.h). The Jacobian's sparsity pattern is fixed by the constraint list
// (ConstraintJacobian), so the solver re-uses its symbolic analysis across steps.
#include "engine/integrators/spook.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "engine/sim/errors.h"

namespace varsim {

SpookStepper::SpookStepper(const ConstrainedModel& model, SpookConfig config, const SpookRetraction* retraction)
    : model_(model),
      config_(config),
      retraction_(retraction),
      solver_(makeSparseSolver(config.solver)),
      jacobian_(model, !config.predictedLinearisation) {  // predicted: only g_k of J(q_k), G(q̃) is predicted_'s
  solver_->setThreads(config_.threads);
  if (config_.predictedLinearisation) {
    predicted_ = std::make_unique<ConstraintJacobian>(model_);
    previous_ = std::make_unique<ConstraintJacobian>(model_, false);  // ğ only
  }
  relax_.assign(model.constraints().size(), ConstraintRelaxation{});
  D_.setZero(jacobian_.rows());
  t_.setZero(jacobian_.rows());
  Jv_.setZero(jacobian_.rows());  // also the divergence check's scratch from the first step on
  multipliers_.setZero(jacobian_.rows());
}

static void checkRelaxation(const ConstraintRelaxation& r) {
  auto ok = [](double v) { return std::isfinite(v) && v >= 0.0; };
  if (!ok(r.epsilon)) throw BadInput("SPOOK: epsilon = " + std::to_string(r.epsilon) + ": allowed [0, inf)");
  if (!ok(r.tau)) throw BadInput("SPOOK: tau = " + std::to_string(r.tau) + ": allowed [0, inf) s");
  if (!ok(r.gamma)) throw BadInput("SPOOK: gamma = " + std::to_string(r.gamma) + ": allowed [0, inf)");
}

void SpookStepper::setRelaxation(int constraint, const ConstraintRelaxation& r) {
  checkRelaxation(r);
  relax_.at(size_t(constraint)) = r;
  factorsStale_ = true;
  ++epoch_;
}

void SpookStepper::setGroupRelaxation(int group, const ConstraintRelaxation& r) {
  checkRelaxation(r);
  const auto& cs = model_.constraints();
  for (size_t i = 0; i < cs.size(); ++i)
    if (cs[i].group == group) relax_[i] = r;
  factorsStale_ = true;
  ++epoch_;
}

void SpookStepper::setAllRelaxation(const ConstraintRelaxation& r) {
  checkRelaxation(r);
  std::fill(relax_.begin(), relax_.end(), r);
  factorsStale_ = true;
  ++epoch_;
}

void SpookStepper::setThreads(int threads) {
  solver_->setThreads(threads);  // validates first
  config_.threads = threads;
}

void SpookStepper::setSolver(SparseSolverKind kind) {
  if (kind == solver_->kind()) return;
  solver_ = makeSparseSolver(kind);
  solver_->setThreads(config_.threads);
}

// ğ, the g_{k−1} of (26)'s ¼(g_{k+1} + 2g_k + g_{k−1}) on a grid of step h (the rows at t_k − h; (28) linearises it
// as g_k − hG_k v_k), and its jump from g_k (retrodictionJump): frame-start work, the same for every ṽ. The step
// of hb = hBefore that led to q_k was q_k = q_{k−1} ⊕ hb v_k, so q_k ⊕ (−hb v_k) is q_{k−1} (to round-off) and
// its rows are g_{k−1} at t_k − hb. For hb ≠ h, ğ is interpolated linearly in time between the two visited values:
//   ğ = g_k + (h/hb)(g(q_k ⊕ (−hb v_k)) − g_k),
// which for rows linear in q is (28)'s g_k − hG_k v_k at any hb (G_k v_k = (g_k − g_{k−1})/hb). It replaces
// g(q_k ⊕ (−h v_k)), a pose nobody visited when hb ≠ h: v_k is the secant over hb, so a rod end retraced along
// it for h ≠ hb leaves its arc by ~(l/4)|ω|²h|h − hb| — centimetres in a whip, where after a sub-stepped
// frame that jump kept the next frame splitting (ladder 75; test_rigid_rod_retrodiction). hb = h (or 0: unknown) is
// g(q_k ⊕ (−h v_k)) as before, bit for bit; the first solve's q̃ = q_k ⊕ h v_k comes with it (predictedPose()):
// the retraction then shares the rotation of the two.
void SpookStepper::retrodict(const MechanicalState& state, double h, double hBefore) {
  const double hb = hBefore > 0 ? hBefore : h;
  if (retraction_ && hb == h) {
    retraction_->retractBothWays(state.q, state.v, h, qPredicted_, next_.q);
  } else if (retraction_) {
    retraction_->retract(state.q, state.v, h, qPredicted_);
    retraction_->retract(state.q, state.v, -hb, next_.q);
  } else {
    qPredicted_ = state.q + h * state.v;
    next_.q = state.q - hb * state.v;
  }
  predictedAtStart_ = true;
  previous_->evaluateValues(next_.q, state.t - hb);  // g_{k−1} only
  const Eigen::VectorXd &g = jacobian_.value(), &gBefore = previous_->value();
  gRetrodicted_ = &gBefore;
  if (hb != h) {
    gInterpolated_ = gBefore;  // nonholonomic rows: unused
    gRetrodicted_ = &gInterpolated_;
  }
  const double ratio = h / hb;
  retrodictionJump_ = 0;
  for (const RowRun& run : runs_)
    if (run.holonomic)
      for (int row = run.begin; row < run.end; ++row) {
        if (hb != h) gInterpolated_[row] = g[row] + ratio * (gBefore[row] - g[row]);
        retrodictionJump_ = std::max(retrodictionJump_, std::abs((*gRetrodicted_)[row] - g[row]));
      }
}

// The holonomic rows of (26) with the linearisation of SpookConfig::predictedLinearisation about
// q̃ = q_k ⊕ hṽ (ṽ = `predictor`: v_k on a first solve):
//   ελ + ¼(g̃ + hG̃(v − ṽ) + 2g_k + ğ) + (τ/h)(g̃ − g_k) + τG̃(v − ṽ) = 0, scaled by 4/(h + 4τ)
//   like (29): G̃ v + Σλ = −4/(h + 4τ) [¼g̃ + ½g_k + ¼ğ + (τ/h)(g̃ − g_k) − (h/4)G̃ṽ − τG̃ṽ],
// with ğ from g_{k−1} = g(q_k ⊕ (−hb v_k)) (retrodict): the pose the last step, of length hb, started from,
// so g_{k−1} follows the arc of a spinning rod end that (29)'s g_k − hG_k v_k misses by (l/4)(hω)² — with
// hω of a few rad in a whip, centimetres.
// With g̃ = g_k + hG_k v_k, ğ = g_k − hG_k v_k, G̃ = G_k (linear rows) this is (29)'s
// t = −(4/h)Υg_k + ΥG_k v_k. ğ stays at the pose v_k came from whatever ṽ is.
const SparseMatrixD& SpookStepper::linearisePredicted(const MechanicalState& state, double h,
                                                      const Eigen::VectorXd& predictor) {
  // ṽ = v_k: q̃ is the one retrodict made (bit for bit the same retraction); another ṽ replaces it.
  if (!predictedAtStart_ || (&predictor != &state.v && predictor != state.v)) {
    if (retraction_) retraction_->retract(state.q, predictor, h, qPredicted_);
    else qPredicted_ = state.q + h * predictor;
    predictedAtStart_ = false;
  }
  predicted_->evaluate(qPredicted_, state.t);
  const SparseMatrixD& Gp = predicted_->matrix();
  const Eigen::VectorXd &gp = predicted_->value(), &g = jacobian_.value(), &gPrev = *gRetrodicted_;
  Jv_.noalias() = Gp * predictor;
  for (const RowRun& run : runs_) {
    if (!run.holonomic) continue;
    const double tau = run.tau, scale = run.f.scale, tauOverH = run.f.tauOverH;
    for (int row = run.begin; row < run.end; ++row)
      t_[row] = scale * (0.25 * gp[row] + 0.5 * g[row] + 0.25 * gPrev[row] + tauOverH * (gp[row] - g[row]) -
                         0.25 * h * Jv_[row] - tau * Jv_[row]);
  }
  return Gp;
}

// The same expressions (and bits) as written per row: Σ_i, −(4/h)Υ_i, Υ_i, and linearisePredicted's −4/(h + 4τ_i)
// and τ_i/h; D's rows are Σ_i (Γ_i for nonholonomic rows). A constraint joins the run before it when its rows follow
// on and its kind, factors and τ have the same bits (memcmp: −0.0 and +0.0 stay apart).
void SpookStepper::updateFactors(double h) {
  if (!factorsStale_ && h == factorsH_) return;
  const auto& cs = model_.constraints();
  runs_.clear();
  for (size_t i = 0; i < cs.size(); ++i) {
    if (cs[i].rows == 0) continue;
    const ConstraintRelaxation& rx = relax_[i];
    RowRun run{jacobian_.rowOffset(int(i)), jacobian_.rowOffset(int(i)) + cs[i].rows,
               cs[i].kind == ConstraintKind::Holonomic, {}, rx.tau};
    RowFactors& f = run.f;
    f.upsilon = 1.0 / (1.0 + 4.0 * rx.tau / h);
    f.sigma = run.holonomic ? 4.0 * rx.epsilon * f.upsilon / (h * h) : rx.gamma / h;
    f.gain = -(4.0 / h) * f.upsilon;
    f.scale = -4.0 / (h + 4.0 * rx.tau);
    f.tauOverH = rx.tau / h;
    for (int row = run.begin; row < run.end; ++row) D_[row] = f.sigma;
    RowRun* last = runs_.empty() ? nullptr : &runs_.back();
    if (last && last->end == run.begin && last->holonomic == run.holonomic &&
        std::memcmp(&last->f, &f, sizeof f) == 0 && std::memcmp(&last->tau, &run.tau, sizeof run.tau) == 0)
      last->end = run.end;
    else
      runs_.push_back(run);
  }
  factorsH_ = h;
  factorsStale_ = false;
}

// Assembly of what depends on the step's start only: J(q_k) (g_k alone with the predicted linearisation),
// D = diag(Σ, Γ), the rows (s, t) of eq. (29), ğ, f(q_k, v_k) and M v_k + h f.
void SpookStepper::assembleFrameStart(const MechanicalState& state, double h, double hBefore) {
  const Eigen::VectorXd& v = state.v;
  // Predicted linearisation: G(q_k) unused, only g_k (linearisePredicted rewrites the holonomic t rows).
  if (config_.predictedLinearisation) jacobian_.evaluateValues(state.q, state.t);
  else jacobian_.evaluate(state.q, state.t);
  const SparseMatrixD& J = jacobian_.matrix();
  const Eigen::VectorXd& value = jacobian_.value();
  updateFactors(h);
  if (!config_.predictedLinearisation) Jv_.noalias() = J * v;
  for (const RowRun& run : runs_) {
    if (run.holonomic && config_.predictedLinearisation) continue;  // linearisePredicted writes these rows
    const RowFactors& f = run.f;
    for (int row = run.begin; row < run.end; ++row)
      t_[row] = run.holonomic ? f.gain * value[row] + f.upsilon * Jv_[row] : value[row];  // nonholonomic: w(t_k)
  }
  if (config_.predictedLinearisation) retrodict(state, h, hBefore);
  model_.appliedForce(state.q, v, state.t, rStart_);  // f, then M v + h f in place (no f-sized temporary)
  rStart_ = model_.massDiagonal().cwiseProduct(v) + h * rStart_;
}

SpookFrameStart SpookStepper::beginStep(const MechanicalState& state, double h, double hBefore) {
  if (!(h > 0) || !std::isfinite(h)) throw BadInput("SPOOK: step size h must be > 0");
  if (!(hBefore >= 0) || !std::isfinite(hBefore))
    throw BadInput("SPOOK: length of the step before = " + std::to_string(hBefore) + ": allowed [0, inf) s (0: h)");
  const auto begin = SteadyClock::now();
  ++epoch_;  // first: a throw below leaves no start current over half-written work
  predictedAtStart_ = false;
  assembleFrameStart(state, h, hBefore);
  startUs_ = microsecondsSince(begin);
  return {state.t, h, state.step, epoch_};
}

void SpookStepper::step(MechanicalState& state, double h, const Eigen::VectorXd* predictor,
                        const Eigen::VectorXd* massShift) {
  step(beginStep(state, h), state, predictor, massShift);
}

void SpookStepper::step(const SpookFrameStart& start, MechanicalState& state, const Eigen::VectorXd* predictor,
                        const Eigen::VectorXd* massShift) {
  solveNext(start, state, predictor, massShift);
  commitState(state, next_);
  finishStep();
}

void SpookStepper::stepInto(const SpookFrameStart& start, const MechanicalState& from, MechanicalState& to,
                            const Eigen::VectorXd* predictor, const Eigen::VectorXd* massShift) {
  if (&from == &to) throw BadInput("SPOOK: stepInto needs two states (step() steps one in place)");
  solveNext(start, from, predictor, massShift);
  to.q.swap(next_.q);  // next_ is scratch: its next use overwrites what `to` held (no copy)
  to.v.swap(next_.v);
  to.t = next_.t;
  to.step = next_.step;
  finishStep();
}

// The step from `state` into next_, its divergence check included (a throw leaves every caller's state as it was).
void SpookStepper::solveNext(const SpookFrameStart& start, const MechanicalState& state, const Eigen::VectorXd* predictor,
                             const Eigen::VectorXd* massShift) {
  if (start.epoch != epoch_ || start.t != state.t || start.step != state.step)
    throw BadInput("SPOOK: step from a frame start that is stale (another beginStep or a relaxation change since) "
                   "or made for another state (t, step)");
  const double h = start.h;
  stepStartUs_ = startUs_;
  startUs_ = 0;
  stepStart_ = SteadyClock::now();
  const Eigen::VectorXd& M = model_.massDiagonal();
  const Eigen::VectorXd& v = state.v;

  const SparseMatrixD& G =
      config_.predictedLinearisation ? linearisePredicted(state, h, predictor ? *predictor : v) : jacobian_.matrix();
  const Eigen::VectorXd* r = &rStart_;  // M v_k + h f, or with the mass shift's c ⊙ ṽ added (not copied otherwise)
  const Eigen::VectorXd* shift = massShift && predictor ? massShift : nullptr;  // M + c: summed by the solver
  if (shift) {
    r_ = rStart_ + shift->cwiseProduct(*predictor);
    r = &r_;
  }
  profile_.assemblyUs = stepStartUs_ + microsecondsSince(stepStart_);

  // G's pattern is fixed for the life of its ConstraintJacobian: named by its id, not compared index by index.
  const long patternId = config_.predictedLinearisation ? predicted_->patternId() : jacobian_.patternId();
  solver_->factor(M, G, D_, patternId, shift);
  solver_->solve(*r, t_, next_.v, lambda_);  // v_{k+1} straight into the scratch state: no copy
  const SparseSolveStats& st = solver_->stats();
  profile_.factorUs = st.factorUs;
  profile_.analyseUs = st.analyseUs;
  profile_.solveUs = st.solveUs;
  profile_.factorNnz = st.factorNnz;
  profile_.matrixNnz = st.matrixNnz;
  profile_.analyses = st.analyses;

  updateStart_ = SteadyClock::now();
  // next_ is scratch kept across steps (no allocation); the caller takes it only once the step is accepted.
  next_.t = state.t + h;
  next_.step = state.step + 1;
  if (retraction_) retraction_->retract(state.q, next_.v, h, next_.q);
  else next_.q = state.q + h * next_.v;
  // Jv_ is dead once t is built: the check's g(q_{k+1}) goes there, not into more memory.
  checkDivergence(model_, next_, config_.limits, "SPOOK", jacobian_.rows(), Jv_.data());
}

// After the state took next_: the multipliers, and the profile's update and step times.
void SpookStepper::finishStep() {
  multipliers_.swap(lambda_);  // lambda_ is the solve's output only: the old multipliers are its scratch
  profile_.updateUs = microsecondsSince(updateStart_);
  profile_.stepUs = stepStartUs_ + microsecondsSince(stepStart_);
}

}  // namespace varsim
