// Baseline 2 (seed 001 Sec. 6): SHAKE/RATTLE (Andersen 1983) for holonomic constraints,
//   v_½ = v_k + (h/2) M⁻¹(f_k + G_kᵀλ),  q_{k+1} = q_k + h v_½,  g(q_{k+1}) = 0   (Newton on λ)
//   v_{k+1} = v_½ + (h/2) M⁻¹(f_{k+1} + G_{k+1}ᵀμ),  G_{k+1} v_{k+1} = 0          (linear in μ)
// Newton uses the exact Jacobian (h²/2) G(q_{k+1}) M⁻¹ G_kᵀ (sparse LU). No convergence within
// maxNewton iterations or a singular iteration matrix retries the interval in 2, 4, ..., 1024 equal
// sub-steps; failing those too, or a state breaking DivergenceLimits, throws SimulationDiverged naming
// the step and quantity; the state is then kept.
#pragma once
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>
#include <string>

#include "engine/integrators/constraint_jacobian.h"
#include "engine/models/constrained_model.h"

namespace varsim {

struct RattleConfig {
  double tolerance = 1e-10;  // max |g_i(q_{k+1})| accepted (m for joints)
  int maxNewton = 25;
  DivergenceLimits limits;
};

class Rattle {
 public:
  Rattle(const ConstrainedModel& model, RattleConfig config = {});  // BadInput if nonholonomic rows
  void step(MechanicalState& state, double h);
  int lastNewtonIterations() const { return lastIterations_; }  // of the last step, summed over its sub-steps
  int lastSubsteps() const { return lastSubsteps_; }               // 1, or 2^j when the whole step failed
  static constexpr int kMaxSubstepLevel = 10;                       // at most 2^10 = 1024 sub-steps

 private:
  [[noreturn]] void fail(const MechanicalState& s, const std::string& what) const;
  bool tryStep(const MechanicalState& s, double h, MechanicalState& next, std::string& why);
  const ConstrainedModel& model_;
  RattleConfig config_;
  ConstraintJacobian atStart_, atEnd_;
  Eigen::SparseLU<SparseMatrixD, Eigen::COLAMDOrdering<int>> newton_;
  Eigen::SimplicialLDLT<SparseMatrixD> projection_;
  long newtonNnz_ = -1, projectionNnz_ = -1;
  int lastIterations_ = 0, lastSubsteps_ = 1;
  Eigen::VectorXd minv_, f_;
};

}  // namespace varsim
