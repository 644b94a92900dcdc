// scenes/marionette/marionette_strings.h — strings that can go slack. The tree steppers hold distance constraints h(q_{k+1}) = 0
// with multipliers (bilateral: a string could push). A string only pulls, so each step runs an active set over them: a
// taut string whose multiplier comes out compressive goes slack, a slack string that would end the step longer than its
// length becomes taut, and the step is redone from its start until neither happens. A string catching its load is an
// inelastic impact (energy only lost).
#pragma once

#include <vector>

#include "engine/integrators/tree_stepper.h"

namespace varsim {

class SlackStrings {
 public:
  explicit SlackStrings(const tree::TreeConstraints& all);  // every string taut
  tree::TreeConstraints& all() { return all_; }             // lengths may change between steps
  const tree::TreeConstraints& all() const { return all_; }
  bool taut(int j) const { return taut_[size_t(j)]; }
  int tautCount() const;
  void setTaut(const std::vector<bool>& taut);  // e.g. from a saved state (size checked: BadInput)
  const std::vector<bool>& tautMask() const { return taut_; }

  // One step of s (whose constraints this object sets) moving the kinematic variables to kinNext, with the active-set
  // passes described above (at most kMaxPasses; the last one stands). Throws what s.step throws, with the stepper, the
  // tree and the taut set as before the step. Returns the Newton iterations of all passes.
  static constexpr int kMaxPasses = 6;
  int step(tree::TreeStepper& s, const tree::TreeForcing& f, const Eigen::VectorXd& kinNext, double h);

  // Work (J) of the string impulses over the step just taken, from the lengths before it (`before`) and the kinematic
  // values at its start: sum over taut strings of lambda_j (h_j(q_{k+1}; k_k, L_k) - h_j(q_{k+1}; k_{k+1}, L_{k+1})) /
  // h, which is lambda . G (q_{k+1} - q_k) / h up to O(|q_{k+1} - q_k|^2).
  double work(const tree::TreeStepper& s, const tree::TreeConstraints& before, const Eigen::VectorXd& kin0,
              double h) const;
  // Largest violation at the tree's state: |h_j| of a taut string, max(h_j, 0) of a slack one (m).
  double violation(const tree::Tree& t, double* rms = nullptr) const;
  Eigen::VectorXd multipliers(const tree::TreeStepper& s) const;  // per string (0 when slack), N s
  void restoreMultipliers(tree::TreeStepper& s,
                          const Eigen::VectorXd& perString) const;  // inverse of the above
  // The stepper's velocity at t_k made tangent to the taut strings: v = qdot + M^-1 G^T mu with G v equal to the
  // strings' rate from the moving bar (d . pdot_bar / L), the M-orthogonal projection. The scheme's discrete momentum
  // carries the constraint impulse of a step in one half only, so its velocity has an O(h tension) component across the
  // strings even at rest; the energy is reported with this projected velocity.
  Eigen::VectorXd tangentVelocity(const tree::TreeStepper& s) const;

 private:
  void rebuildActive();

  tree::TreeConstraints all_, active_;
  std::vector<bool> taut_;
  std::vector<int> index_;  // string of each active constraint
};

}  // namespace varsim
