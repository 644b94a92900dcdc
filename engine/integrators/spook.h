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

struct SpookConfig {
  SparseSolverKind solver = SparseSolverKind::Ldlt;  // measured ~10× faster than UMFPACK (bench_ladder)
  DivergenceLimits limits;
};

// Wall-clock split of the last step (µs) and the factor's size.
struct SpookProfile {
  double assemblyUs = 0, factorUs = 0, solveUs = 0, updateUs = 0, stepUs = 0, analyseUs = 0;
  long factorNnz = 0, matrixNnz = 0, analyses = 0;
};

class SpookStepper {
 public:
  SpookStepper(const ConstrainedModel& model, SpookConfig config = {});

  // One step of size h. On any throw (SimulationDiverged, SingularSystem) the state is unchanged.
  void step(MechanicalState& state, double h);

  void setRelaxation(int constraint, const ConstraintRelaxation& r);  // throws BadInput if invalid
  void setGroupRelaxation(int group, const ConstraintRelaxation& r);
  void setAllRelaxation(const ConstraintRelaxation& r);
  const ConstraintRelaxation& relaxation(int constraint) const { return relax_.at(size_t(constraint)); }
  void setSolver(SparseSolverKind kind);
  SparseSolverKind solverKind() const { return solver_->kind(); }
  void setLimits(const DivergenceLimits& limits) { config_.limits = limits; }

  const SpookProfile& profile() const { return profile_; }
  // Multipliers of the last step (λ, α; impulses per step, h × force), stacked in constraint order.
  const Eigen::VectorXd& multipliers() const { return multipliers_; }
  int rowOffset(int constraint) const { return jacobian_.rowOffset(constraint); }
  const SparseMatrixD& jacobian() const { return jacobian_.matrix(); }  // J(q_k) of the last step

 private:
  const ConstrainedModel& model_;
  SpookConfig config_;
  std::unique_ptr<SparseSolver> solver_;
  std::vector<ConstraintRelaxation> relax_;
  ConstraintJacobian jacobian_;
  Eigen::VectorXd D_, r_, t_, f_, Jv_, vNext_, multipliers_, lambda_;
  SpookProfile profile_;
};

}  // namespace varsim
