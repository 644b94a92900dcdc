// engine/integrators/tree_stepper.h — what the tree integrators (tree_midpoint, tree_trapezoidal,
// tree_rk4) share: the forcing of seed 002 Sec. 3 (f = f^x(q, qdot) + B u with joint damping
// f^x = -c∘qdot, B = 1, i.e. u are applied generalized forces/torques, plus an optional state force such
// as penalties) and the stepper interface a scene selects from. Kinematic variables either keep the values
// the tree holds during a step, or move over it from t_k to t_{k+1} (setKinematicTarget).
#pragma once

#include <functional>
#include <vector>

#include "engine/tree/tree_constraints.h"

namespace varsim::tree {

// A generalized force F(q, qdot) that depends on the configuration (soft joint limits, floor contact as
// penalties), evaluated at the tree's current state so it sees the same q, qdot and kinematic values as L.
// A conservative part F = -dV/dq must report V in potential() so energies include it.
class StateForce {
 public:
  virtual ~StateForce() = default;
  virtual VectorXd force(const Tree& t) const = 0;
  virtual double potential(const Tree& t) const = 0;
  // J += a dF/dq + b dF/dqdot at the tree's state (Newton's Jacobian; may omit small curvature terms, Newton
  // then converges linearly, and solveNewton's test is on the step, not on the derivative).
  virtual void addJacobian(const Tree& t, double a, double b, Eigen::MatrixXd& J) const = 0;
};

struct TreeForcing {
  VectorXd damping;                            // c_i >= 0 per dynamic variable (N m s per rad or N s/m); empty: none
  VectorXd torque;                             // u, applied generalized forces; empty: none
  const StateForce* state = nullptr;           // optional F(q, qdot); must outlive the step. Only schemes that
                                               // evaluate f at a configuration use it (midpoint; see force(t))
  VectorXd force(const VectorXd& qdot) const;  // f = -c∘qdot + u (no state force)
  VectorXd force(const Tree& t) const;         // f = -c∘qdot + u + F(q, qdot) at the tree's state
  // J += a df/dq + b df/dqdot of force(t): the damping's -b c on the diagonal and the state force's part.
  void addJacobian(const Tree& t, double a, double b, Eigen::MatrixXd& J) const;
  VectorXd dampingOr0(int n) const;            // c, or zeros when empty
  void validate(int n) const;                  // throws BadInput naming the entry
};

// Plain Newton (seed 002 Algorithm 1: x <- x + d with J(x) d = -r(x), no line search) from the given x.
// Stops when |d|_inf <= 1e-12 (1 + |x|_inf), or at the round-off floor (|d|_inf <= 1e-8 (1 + |x|_inf) and
// no longer halving, as with ill-scaled multipliers); returns the number of iterations, or -1 if it did not converge
// within maxIter or produced non-finite numbers (x is then unspecified).
struct NewtonProblem {
  std::function<VectorXd(const VectorXd&)> residual;
  std::function<Eigen::MatrixXd(const VectorXd&)> jacobian;
};
int solveNewton(const NewtonProblem& p, VectorXd& x, int maxIter = 40);
// Newton with Armijo backtracking on |r| (globalised): the fallback when plain Newton fails. Converged when the
// full Newton step is at most 1e-12 (1 + |x|_inf); -1 after maxIter or on non-finite numbers.
int solveNewtonDamped(const NewtonProblem& p, VectorXd& x, int maxIter = 100);

class TreeStepper {
 public:
  explicit TreeStepper(Tree& tree) : tree_(tree) {}
  virtual ~TreeStepper() = default;
  // Starts at (q0, qdot0); the step size and forcing of the first step enter the discrete Legendre
  // transform of the implicit schemes, so they are given here too. Throws BadInput.
  virtual void initialize(const VectorXd& q0, const VectorXd& qdot0, double h, const TreeForcing& f) = 0;
  // Advances by h (the h of initialize for the implicit schemes). Throws SimulationDiverged (state kept).
  virtual void step(const TreeForcing& f) = 0;
  virtual VectorXd q() const = 0;
  virtual VectorXd qdot() const = 0;                  // velocity at t_k (from the discrete momentum for the VIs)
  virtual int newtonIterations() const { return 0; }  // of the last step
  double energy() const;                              // T + V at (q(), qdot()) with the tree
  Tree& tree() const { return tree_; }
  // Holonomic constraints h(q_{k+1}) = 0 with multipliers (midpoint, trapezoidal; RK4 rejects them). The
  // object must outlive the stepper; nullptr removes them. Lengths may change between steps.
  void setConstraints(const TreeConstraints* c) { constraints_ = c; }
  const VectorXd& multipliers() const { return lambda_; }  // of the last step
  void setMultipliers(const VectorXd& lambda) { lambda_ = lambda; }  // restores the next step's warm start
  // Kinematic variables moving over the next step (seed 003 Assumption 2: prescribed functions of time).
  // Call before step() with their values at t_{k+1}; the tree's values at this call are those at t_k.
  // During that step the tree holds the linear path k(s) = k_k + s (k_{k+1} - k_k), rate (k_{k+1} - k_k)/h:
  // the midpoint L_d and forcing see s = alpha, the constraint force acts with G = Dh(q_k; k_k), the
  // constraint holds as h(q_{k+1}; k_{k+1}) = 0, and afterwards the tree holds s = 1. Without a call the
  // tree's kinematic values stay as they are during the step. Throws BadInput (size, finite, h > 0).
  void setKinematicTarget(const VectorXd& next, double h);
  // Everything the next step depends on besides the tree's model (h, q, the discrete momentum or previous
  // velocity, the last Newton count), for scenes' history and exact replay: after loadState(saveState())
  // the stepper continues bit-identically. loadState throws BadInput on a size that does not fit dof().
  virtual std::vector<double> saveState() const = 0;
  virtual void loadState(const std::vector<double>& s) = 0;

 protected:
  bool constrained() const { return constraints_ && constraints_->count() > 0; }
  // Puts the tree's kinematic variables at fraction s of the current step's path (no-op without a target).
  void kinematicAt(double s) const;
  // Newton on z = (x, lambda) for r(x) + G^T lambda = 0, h(q_{k+1}; k_{k+1}) = 0 with q_{k+1} = base + dqdx x
  // and G = dqdx Dh(q_k; k_k): the constraint force acts at q_k, the constraint holds at q_{k+1} (the
  // SHAKE-type constrained DEL equations), warm-started from the last multipliers, with solveNewtonDamped as
  // the fallback. Without constraints it is plain solveNewton. Sets lambda_; takes
  // the pending kinematic target (the tree holds k_{k+1} on return, k_k after a failure).
  int solveStep(const NewtonProblem& p, const VectorXd& qk, const VectorXd& base, double dqdx, VectorXd& x);
  int solveConstrained(const NewtonProblem& p, const VectorXd& qk, const VectorXd& base, double dqdx, VectorXd& x);

  // saveState/loadState layout: `scalars` numbers (h first, then the Newton count if any), then `vectors` vectors
  // of length dof(); throws BadInput on a wrong size or a non-finite, non-positive h or out-of-range count.
  void checkStateSize(const std::vector<double>& s, size_t scalars, int vectors, const char* who) const;
  static void appendVector(std::vector<double>& s, const VectorXd& v) { s.insert(s.end(), v.data(), v.data() + v.size()); }
  VectorXd takeVector(const std::vector<double>& s, size_t& at) const;  // the dof() entries from `at`, advances it

  Tree& tree_;
  const TreeConstraints* constraints_ = nullptr;
  VectorXd lambda_;
  // Kinematic path of the step in progress: k_k, k_{k+1}, its rate; `kinPending_` set by
  // setKinematicTarget, taken by the next solveStep (which clears `kinActive_` when there is none).
  VectorXd kin0_, kin1_, kinRate_;
  bool kinPending_ = false, kinActive_ = false;
};

// The implicit tree schemes (midpoint, trapezoidal): a step whose Newton solve fails (a start outside its
// basin at large h|qdot|, stiff penalties, strings snapping taut), or that turns a joint by more than kMaxTurn,
// is retried as the same interval in 2, 4, ...
// kMaxSubsteps equal sub-steps, as the floating base does (floating_base.cpp); a step that converged at once is
// bit-identical to the scheme without the retry. The kinematic path, if any, is cut at the same fractions.
class ImplicitTreeStepper : public TreeStepper {
 public:
  using TreeStepper::TreeStepper;
  static constexpr int kMaxSubsteps = 64;
  // A converged step that turns a joint by more than this (rad; m for a sliding joint) is retried in sub-steps
  // too, as rigid-rod SPOOK's max turn: at such increments Newton can converge to a root that is not the
  // motion (a 10-link chain curled 0.5 rad at every joint, h = 0.01: a 1.07 rad step doubled the energy, which
  // then ran away until Newton failed at t = 2.49 s). bench_tree's curled table with it: every case completes,
  // dE 0.080 (N = 10, h = 0.01) and 0.064 (N = 19, h = 0.01) where RK4 gives 0.54 and fails; 0.25 rad gave
  // 0.013 and 0.021 at 1.6x and 1.2x the time.
  static constexpr double kMaxTurn = 0.5;
  int substeps() const { return substeps_; }  // of the last step: 1, or the sub-steps a failed Newton was retried in

 protected:
  // One step of the scheme's current step size from its state: the Newton count, or -1 with the state kept and
  // the tree's kinematic variables back at t_k.
  virtual int advance(const TreeForcing& f) = 0;
  // Enter steps of h/n (the scheme's discrete momentum carried over) / leave them for whole steps of h again.
  virtual void beginSubsteps(int n, const TreeForcing& f) = 0;
  virtual void endSubsteps(const TreeForcing& f) = 0;
  // advance(f), retried in sub-steps on failure: the summed Newton count, -1 when even kMaxSubsteps failed
  // (state kept). Sets substeps().
  int advanceOrSubstep(const TreeForcing& f);
  // Whether a step's increment turns some variable by more than kMaxTurn: advance() then rejects the step like a
  // failed Newton.
  static bool turnsTooFar(const VectorXd& dq);

 private:
  int advanceInSubsteps(const TreeForcing& f, int n);
  int substeps_ = 1;
};

}  // namespace varsim::tree
