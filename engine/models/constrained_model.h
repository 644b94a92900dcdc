// The generic constrained multibody model the SPOOK stepper and its baselines (RK4 + Baumgarte,
// RATTLE) step: constant diagonal mass matrix, a list of constraints each with a dense Jacobian block
// over a few coordinates (body indices → columns), applied forces f(q, v, t) − ∇V(q), and the state
// (q, v, t) shared by all three integrators. Rod ladders, chains and the sleigh implement it.
#pragma once
#include <Eigen/Core>
#include <string>
#include <vector>

namespace varsim {

enum class ConstraintKind {
  Holonomic,     // g(q) = 0, Jacobian G = ∂g/∂q
  Nonholonomic,  // A(q) q̇ = w(t) (Pfaffian, seed 001 Sec. 4)
};

struct ConstraintDesc {
  std::string name;          // for the UI's constraint list, e.g. "joint 4: rod 2 head - rod 5 tail"
  ConstraintKind kind = ConstraintKind::Holonomic;
  int group = 0;             // model-defined group (joints, unit length, pins, ...), see groupNames()
  int rows = 1;              // 0..3 scalar rows (0: held by the coordinates, e.g. a rigid rod's length)
  std::vector<int> columns;  // coordinates spanned by the dense Jacobian block (rows × columns.size())
  // Entries of that block (row-major) that are zero for every q, t; empty: none. The stacked Jacobian stores only
  // the others, so every pass over J (products, the solvers' assembly) skips them. A ball joint's row k of
  // ∂(x + s(l/2)u)/∂(x, u) is nonzero only in the k-th column of each 3-column block: 2/3 of its block.
  std::vector<char> structuralZero;
};

class ConstrainedModel {
 public:
  virtual ~ConstrainedModel() = default;
  virtual int coordinateCount() const = 0;
  virtual const Eigen::VectorXd& massDiagonal() const = 0;  // constant, > 0
  virtual const std::vector<ConstraintDesc>& constraints() const = 0;
  virtual std::vector<std::string> groupNames() const = 0;
  // Holonomic: value = g_i(q) and jac = ∂g_i/∂q on the block's columns. Nonholonomic: value = w_i(t)
  // and jac = A_i(q). jac is row-major rows × columns.size().
  virtual void evaluateConstraint(int i, const Eigen::VectorXd& q, double t, double* value, double* jac) const = 0;
  // The value of evaluateConstraint alone (same bits), for callers that need no Jacobian: SPOOK's g_k and
  // retrodicted g_{k−1} of the predicted linearisation, the divergence check. The default evaluates the
  // Jacobian into scratch; models whose Jacobian costs more than their value override it.
  virtual void constraintValue(int i, const Eigen::VectorXd& q, double t, double* value) const;
  // Every constraint's constraintValue (same bits), rows stacked in constraint order (ConstraintJacobian's rows):
  // the default calls constraintValue per constraint; a model with many small constraints overrides it with one pass.
  virtual void constraintValues(const Eigen::VectorXd& q, double t, double* stacked) const;
  // Optional one-pass evaluation for a model with many small constraints: `stacked` as constraintValues, and the
  // entries of every block less its structural zeros (row-major, constraints in order; entry k of that sequence) to
  // jac[slot[k]] (ConstraintJacobian's value array in its storage order), the same bits as evaluateConstraint. With
  // `keepFixed` it may skip entries that are the same for every q and t (jac holds them from an earlier call).
  // Returns false without one (the default): ConstraintJacobian then calls evaluateConstraint per constraint.
  virtual bool evaluateStacked(const Eigen::VectorXd& /*q*/, double /*t*/, double* /*stacked*/, double* /*jac*/,
                               const int* /*slot*/, bool /*keepFixed*/) const {
    return false;
  }
  // d/dt(J_i(q)) q̇ for holonomic rows (Ġ v) and Ȧ v − ẇ for nonholonomic rows: what the
  // acceleration-level (index-1) form of the baselines needs.
  virtual void constraintCurvature(int i, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double t,
                                   double* out) const = 0;
  // Generalised applied force f(q, v, t) − ∇V(q) (gravity and any non-potential forces).
  virtual void appliedForce(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double t, Eigen::VectorXd& f) const = 0;
  virtual double potentialEnergy(const Eigen::VectorXd& q) const = 0;

  int totalRows() const;
  int rowsOfKind(ConstraintKind kind) const;
  bool hasNonholonomic() const { return rowsOfKind(ConstraintKind::Nonholonomic) > 0; }
  double kineticEnergy(const Eigen::VectorXd& v) const;
};

// State shared by every integrator on a ConstrainedModel. v is the velocity that produced q for
// SPOOK (q_k = q_{k-1} + h v_k) and the node velocity for RK4/RATTLE.
struct MechanicalState {
  Eigen::VectorXd q, v;
  double t = 0.0;
  long step = 0;  // steps taken, for divergence messages
};

// Accepts a step: next's values into state's own buffers (equal sizes, so no allocation and q, v keep their
// addresses; scenes hand them out in place, scenes/state_block.h). Steppers commit through this, never a swap/move.
inline void commitState(MechanicalState& state, const MechanicalState& next) {
  state.q = next.q;
  state.v = next.v;
  state.t = next.t;
  state.step = next.step;
}

// Divergence limits shared by all steppers: a step whose result breaks them is refused.
struct DivergenceLimits {
  double maxSpeed = 1e5;      // m/s: any |v_i| above this means the integration blew up
  double maxViolation = 10.0;  // max |g_i| (m for joints; (u·u−1)/2 for unit rows, which reach 1 in whiplash at h = 1/30)
};

// Throws SimulationDiverged naming `who`, the step and the quantity if the candidate state is not
// finite or breaks the limits; the caller then keeps its previous state. `rows`: model.totalRows() if the caller
// knows it (a stepper, every step: totalRows() walks every ConstraintDesc), −1 to have it counted here.
// `scratch` (rows doubles, or null: a buffer per thread) receives g(q): a stepper passes one of its own that is dead
// at that point, so the check adds no memory to the step's working set.
void checkDivergence(const ConstrainedModel& model, const MechanicalState& candidate, const DivergenceLimits& limits,
                     const std::string& who, int rows = -1, double* scratch = nullptr);

}  // namespace varsim
