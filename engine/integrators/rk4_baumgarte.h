// Baseline 1 (seed 001 Sec. 6): classical RK4 on the index-1 form of the constrained equations with
// Baumgarte stabilisation (Baumgarte 1972). Per stage: a = M⁻¹(f + Jᵀλ) with
//   (J M⁻¹ Jᵀ) λ = −J M⁻¹ f − c − b,
// c = Ġv (holonomic) or Ȧv − ẇ (nonholonomic), b = 2ζω Gv + ω² g (holonomic) or 2ζω(Av − w)
// (nonholonomic). A singular J M⁻¹ Jᵀ (redundant rows) or a state breaking DivergenceLimits throws
// SimulationDiverged naming the step and quantity; the state is then kept.
#pragma once
#include <Eigen/SparseCholesky>

#include "engine/integrators/constraint_jacobian.h"
#include "engine/models/constrained_model.h"

namespace varsim {

struct BaumgarteConfig {
  double omega = 10.0;  // rad/s, stabilisation frequency ω (0 = no stabilisation)
  double zeta = 1.0;    // damping ratio ζ (1 = critically damped drift)
  DivergenceLimits limits;
};

class Rk4Baumgarte {
 public:
  Rk4Baumgarte(const ConstrainedModel& model, BaumgarteConfig config = {});
  void step(MechanicalState& state, double h);
  void setConfig(const BaumgarteConfig& config) { config_ = config; }
  // Constrained acceleration at (q, v, t); exposed for tests.
  void acceleration(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double t, Eigen::VectorXd& a);

 private:
  const ConstrainedModel& model_;
  BaumgarteConfig config_;
  ConstraintJacobian jacobian_;
  Eigen::SimplicialLDLT<SparseMatrixD> schur_;
  long analysedNnz_ = -1;
  long step_ = 0;
  Eigen::VectorXd minv_, f_, c_, rhs_;
};

}  // namespace varsim
