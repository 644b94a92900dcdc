// The SPOOK stepper (seed 001 eq. (29)): one sparse linear solve per step for the velocity v_{k+1}
// and the multipliers of holonomic rows g(q) = 0 (regularised by ε_i, stabilised by τ_i) and
// nonholonomic rows A(q)q̇ = w(t) (relaxed by γ_i), then q_{k+1} = q_k + h v_{k+1}:
//   [[M, −Aᵀ, −Gᵀ], [A, Γ, 0], [G, 0, Σ]] [v_{k+1}; α; λ] = [r; w_k; −(4/h)Υ g_k + Υ G v_k],
//   r = M v_k + h (f(q_k, v_k) − ∇V(q_k))            (ERRATA: read the force term this way)
//   Σ_i = 4ε_i / (h²(1 + 4τ_i/h)), Υ_i = 1/(1 + 4τ_i/h), Γ_i = γ_i / h           (eq. (27))
// The nonholonomic rows are re-derived (ERRATA: f_q = +Aᵀα̇): the ghost variable α is massless, so
// γα̇ + Aq̇ − w = 0; discretised γ(α_{k+1} − α_k)/h + A_k v_{k+1} = w_k and α := α_{k+1} − α_k
// gives A_k v_{k+1} + (γ/h) α = w_k with force +A_kᵀα in the momentum row, as printed in (29).
#pragma once
#include <Eigen/Core>
#include <memory>
#include <vector>

#include "engine/integrators/constraint_jacobian.h"
#include "engine/models/constrained_model.h"
#include "engine/solvers/sparse_solver.h"

namespace varsim {

// Per-constraint relaxation. Holonomic rows use ε (compliance, units of g per unit force, e.g. m/N
// for a joint) and τ (s, damping time of the violation); nonholonomic rows use γ (s/kg for the
// blade: inverse damping coefficient of the violating velocity).
struct ConstraintRelaxation {
  double epsilon = 1e-8;
  double tau = 2.0 / 60.0;  // 2h at h = 1/60 (seed 001 Sec. 6 default τ/h = 2)
  double gamma = 1e-8;
};

// How the configuration follows the solved velocity. Without one SPOOK uses the paper's vector-space
// update q_{k+1} = q_k + h v_{k+1}; a model whose configuration lives on a group (rigid rods:
// rigid_rod_model.h) supplies a retraction instead (seed 000: q_{k+1} = q_k ∘ exp(h v_{k+1})).
class SpookRetraction {
 public:
  virtual ~SpookRetraction() = default;
  virtual void retract(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double h, Eigen::VectorXd& qNext) const = 0;
  // q ⊕ hv and q ⊕ (−hv) (a step's predicted and retrodicted poses), each bit for bit what retract gives; a model
  // may share the work of the two (a rotation and its inverse).
  virtual void retractBothWays(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double h, Eigen::VectorXd& forward,
                               Eigen::VectorXd& backward) const {
    retract(q, v, h, forward);
    retract(q, v, -h, backward);
  }
};

struct SpookConfig {
  SparseSolverKind solver = SparseSolverKind::Ldlt;  // measured ~10× faster than UMFPACK (bench_ladder)
  DivergenceLimits limits;
  // Linearise the constraints of eq. (28) about the predicted pose q̃ = q_k ⊕ h v_k instead of q_k:
  // g_{k+1} ≈ g(q̃) + h G(q̃)(v_{k+1} − v_k), g_{k−1} = g(q_k ⊕ (−h v_k)), (τ/h)G(q_{k+1} − q_k) ≈
  // (τ/h)(g_{k+1} − g_k), and G(q̃) in the matrix. Identical to (29) for constraints linear in q; for
  // rows curved in the velocity (a rigid rod's joints: the end moves on an arc) the error per step
  // drops from O(h²|v|²) to O(h²|Δv|²). Off: the paper's (29) exactly.
  bool predictedLinearisation = false;
  // Threads of the linear solve, 1 or 2 (BadInput otherwise): the block solver factors its two
  // elimination chains concurrently, bit-identical to 1 thread; LDLᵀ and UMFPACK use one.
  int threads = 1;
};

// Wall-clock split of the last step (µs) and the factor's size.
struct SpookProfile {
  double assemblyUs = 0, factorUs = 0, solveUs = 0, updateUs = 0, stepUs = 0, analyseUs = 0;
  long factorNnz = 0, matrixNnz = 0, analyses = 0;
};

// A step's start: the terms of eq. (26) that depend on (q_k, v_k, t_k) and h only — g_k, the retrodicted ğ and
// its jump, D = diag(Σ, Γ), the (s, t) rows, f(q_k, v_k) and M v_k + h f — assembled once by
// SpookStepper::beginStep and solved from by step(start, …) as often as a caller re-linearises
// (rigid_rod_spook.h; ~10 % of a re-solve). The work stays in the stepper (no allocation per step); this
// names it. It is valid until the stepper's next beginStep or relaxation change: step() refuses a stale start,
// or a state at another t or step count, with BadInput.
struct SpookFrameStart {
  double t = 0, h = 0;
  long step = 0;
  unsigned long epoch = 0;  // the stepper's count of beginStep calls and relaxation changes when it was made
};

class SpookStepper {
 public:
  // `retraction` (optional, not owned, must outlive the stepper) replaces q + h v.
  SpookStepper(const ConstrainedModel& model, SpookConfig config = {}, const SpookRetraction* retraction = nullptr);

  // One step of size h. On any throw (SimulationDiverged, SingularSystem) the state is unchanged.
  // `predictor` (predictedLinearisation only; null = state.v, today's step): the velocity ṽ whose pose
  // q̃ = q_k ⊕ hṽ the rows are linearised about, g_{k+1} ≈ g(q̃) + hG(q̃)(v_{k+1} − ṽ). Re-solving with
  // ṽ = the last v_{k+1} is a Newton step on the rows at the end pose (rigid_rod_spook.h). `massShift`
  // (with a predictor; ≥ 0): c of Newton's linearised constraint force Gᵀλ ≈ G̃ᵀλ − diag(c)(v − ṽ) (the
  // force turning with the body), i.e. M + diag(c) in the matrix and M v_k + h f + c ⊙ ṽ on the right.
  // This is beginStep(state, h) then step(start, state, …).
  void step(MechanicalState& state, double h, const Eigen::VectorXd* predictor = nullptr,
            const Eigen::VectorXd* massShift = nullptr);
  // The frame-start work of a step of h from `state` (SpookFrameStart); BadInput unless h > 0 and finite.
  // `hBefore` (predictedLinearisation; s, ≥ 0 and finite, else BadInput): the length of the step that led to
  // `state`, over which ğ is retrodicted (retrodict in spook.cpp); 0 = unknown or h: ğ = g(q_k ⊕ (−h v_k)).
  SpookFrameStart beginStep(const MechanicalState& state, double h, double hBefore = 0);
  // One step from a start made by beginStep for this `state` (its t and step count; q and v are the caller's
  // to keep equal), with the predictor and mass shift above: a re-linearised re-solve of the same step is
  // bit for bit what a fresh step(state, h, …) would compute.
  void step(const SpookFrameStart& start, MechanicalState& state, const Eigen::VectorXd* predictor = nullptr,
            const Eigen::VectorXd* massShift = nullptr);
  // The same step from `from` (the state the start was made for, left as it is) into `to` (another object; a
  // stepper's scratch): bit for bit step(start, from, …)'s result, but `to` exchanges its q and v buffers with the
  // stepper's scratch instead of being copied into, and `from` stays the step's start — a caller that re-solves or
  // checks a step against its start (rigid_rod_spook.h) keeps no copy of it. On a throw `to` is unchanged.
  void stepInto(const SpookFrameStart& start, const MechanicalState& from, MechanicalState& to,
                const Eigen::VectorXd* predictor = nullptr, const Eigen::VectorXd* massShift = nullptr);

  void setRelaxation(int constraint, const ConstraintRelaxation& r);  // throws BadInput if invalid
  void setGroupRelaxation(int group, const ConstraintRelaxation& r);
  void setAllRelaxation(const ConstraintRelaxation& r);
  const ConstraintRelaxation& relaxation(int constraint) const { return relax_.at(size_t(constraint)); }
  void setSolver(SparseSolverKind kind);
  void setThreads(int threads);  // SpookConfig::threads, live (BadInput outside 1..2); bit-identical results
  SparseSolverKind solverKind() const { return solver_->kind(); }
  void setLimits(const DivergenceLimits& limits) { config_.limits = limits; }

  const SpookProfile& profile() const { return profile_; }
  const SpookConfig& config() const { return config_; }
  // Multipliers of the last step (λ, α; impulses per step, h × force), stacked in constraint order.
  const Eigen::VectorXd& multipliers() const { return multipliers_; }
  int rowOffset(int constraint) const { return jacobian_.rowOffset(constraint); }
  int rowCount(int constraint) const { return model_.constraints().at(size_t(constraint)).rows; }
  // The Jacobian in the last step's matrix: J(q_k), or G(q̃) with predictedLinearisation.
  const SparseMatrixD& jacobian() const { return predicted_ ? predicted_->matrix() : jacobian_.matrix(); }
  // predictedLinearisation: max over the holonomic rows of |ğ − g_k| in the last step. ğ is g_{k−1} interpolated
  // to t_k − h along the step of hBefore that led to q_k (retrodict in spook.cpp): the jump is the rows' change
  // over that step scaled by h/hBefore, large only when the rows moved (or when hBefore was not given).
  double retrodictionJump() const { return retrodictionJump_; }
  // predictedLinearisation, after beginStep: q_k ⊕ (−hBefore v_k) (q_{k−1} when the step of hBefore that led to q_k
  // was this retraction), and ğ, the retrodicted rows at t_k − h that the step's t rows use. The pose is only
  // read to evaluate ğ: it lives in the scratch state's q, so it is valid until the update of the next step.
  const Eigen::VectorXd& retrodictedPose() const { return next_.q; }
  const Eigen::VectorXd& retrodictedValues() const { return *gRetrodicted_; }
  // predictedLinearisation: q̃ = q_k ⊕ hṽ the last step linearised its rows about; after beginStep and before a
  // step from it, q_k ⊕ h v_k — the first solve's q̃ at the default predictor ṽ = v_k (retracted with ğ's pose at
  // once), which a step whose predictor equals v_k bit for bit re-uses instead of retracting it again.
  const Eigen::VectorXd& predictedPose() const { return qPredicted_; }

 private:
  const ConstrainedModel& model_;
  SpookConfig config_;
  const SpookRetraction* retraction_;
  std::unique_ptr<SparseSolver> solver_;
  std::vector<ConstraintRelaxation> relax_;
  ConstraintJacobian jacobian_;
  // Jv_: J v_k, or G(q̃) ṽ with predictedLinearisation, read only while t is built; then the divergence check's scratch.
  Eigen::VectorXd D_, r_, rStart_, t_, Jv_, multipliers_, lambda_;
  MechanicalState next_;
  SpookProfile profile_;
  // predictedLinearisation: J(q̃) and q̃ (G(q̃) ṽ goes to Jv_, the retrodicted pose to next_.q).
  std::unique_ptr<ConstraintJacobian> predicted_;
  Eigen::VectorXd qPredicted_;
  bool predictedAtStart_ = false;  // qPredicted_ is q_k ⊕ h v_k of the current frame start
  std::unique_ptr<ConstraintJacobian> previous_;  // g_{k−1} = g(q_k ⊕ (−hBefore v_k))
  Eigen::VectorXd gInterpolated_;
  // ğ: previous_'s values (hBefore = h) or gInterpolated_.
  const Eigen::VectorXd* gRetrodicted_ = &gInterpolated_;
  double retrodictionJump_ = 0;
  // Counts beginStep calls and relaxation changes: a SpookFrameStart is current while its epoch is this one.
  unsigned long epoch_ = 0;
  double startUs_ = 0;  // µs of the last beginStep, counted in the profile of the first step from it
  // Per-constraint factors of eqs. (27)–(29) for a step of h under the current relaxation, and D = diag(Σ, Γ)
  // from them: recomputed only when h or a relaxation changes (divisions per constraint, not per solve).
  struct RowFactors {
    double sigma, gain, upsilon;  // Σ_i (Γ_i), −(4/h)Υ_i, Υ_i
    double scale, tauOverH;       // −4/(h + 4τ_i), τ_i/h (linearisePredicted)
  };
  // Runs of consecutive rows whose constraints share kind, factors and τ bit for bit, in row order (a ladder: one).
  // The per-row passes walk these instead of every constraint's ConstraintDesc (96 bytes, unit constraints with 0
  // rows included: 3.4 MB of lines per pass at N = 5000, a cache miss each once the step outgrows the cache).
  struct RowRun {
    int begin, end;  // rows [begin, end)
    bool holonomic;
    RowFactors f;
    double tau;
  };
  std::vector<RowRun> runs_;
  double factorsH_ = 0;
  bool factorsStale_ = true;
  void updateFactors(double h);
  void solveNext(const SpookFrameStart& start, const MechanicalState& state, const Eigen::VectorXd* predictor,
                 const Eigen::VectorXd* massShift);  // the step into next_ (step, stepInto)
  void finishStep();
  double stepStartUs_ = 0;  // the step's share of its beginStep (µs), and its clocks (solveNext to finishStep)
  SteadyClock::time_point stepStart_, updateStart_;
  void assembleFrameStart(const MechanicalState& state, double h, double hBefore);
  void retrodict(const MechanicalState& state, double h, double hBefore);
  const SparseMatrixD& linearisePredicted(const MechanicalState& state, double h, const Eigen::VectorXd& predictor);
};

}  // namespace varsim
