// Rods as rigid bodies for SPOOK (issue 16): a RodSystem's rods with configuration (x, u) ∈ R³ × S²
// and velocity twist (ẋ, ω) instead of seed 001 Sec. 6's (x, u) ∈ R⁶ held by the row u·u = 1.
// Slender rods have no axial inertia; we give the rod the isotropic inertia J = m l²/12 (the
// transverse value, ERRATA) on ω. That changes nothing physical: joint forces act at points on
// the axis, so they never torque about u, the isotropic body has no gyroscopic term (ω × Jω = 0),
// and the retraction u ← exp(hω̂)u conserves ω·u, which starts and stays 0 — so (u, ω ⊥ u) is the
// S² model of an axisymmetric rod with a constant diagonal mass, as SPOOK's eq. (29) wants (seed 001
// Sec. 4 end: rigid bodies with a configuration-dependent M need extra terms; this one has none).
#pragma once
#include <Eigen/Core>
#include <vector>

#include "engine/integrators/spook.h"
#include "engine/models/rod_system.h"

namespace varsim {

class RigidRodModel : public ConstrainedModel, public SpookRetraction {
 public:
  explicit RigidRodModel(const RodSystem& system);  // the system must outlive the model

  const RodSystem& system() const { return system_; }
  // Director rates (ẋ, u̇) ⇄ twist (ẋ, ω): ω = u × u̇ (the rotation ⊥ u that moves u at u̇) and
  // u̇ = ω × u. Particles' velocities are copied. Both write every entry of `out` (sized here).
  void toTwist(const Eigen::VectorXd& q, const Eigen::VectorXd& rates, Eigen::VectorXd& out) const;
  void toRates(const Eigen::VectorXd& q, const Eigen::VectorXd& twist, Eigen::VectorXd& out) const;

  // SpookRetraction: x_{k+1} = x_k + h ẋ_{k+1}; u_{k+1} = exp(h ω̂_{k+1}) u_k (seed 000 eq. (11)),
  // renormalised so rounding cannot accumulate in |u| (the rod's length is exact to 1 ulp).
  void retract(const Eigen::VectorXd& q, const Eigen::VectorXd& twist, double h, Eigen::VectorXd& qNext) const override;
  // Both at once, each rod's exp(±hω̂)u sharing its coefficients and cross products (so3::rotateBothWays).
  void retractBothWays(const Eigen::VectorXd& q, const Eigen::VectorXd& twist, double h, Eigen::VectorXd& forward,
                       Eigen::VectorXd& backward) const override;
  // The linearisation error of a step q → qNext (twist → twistNext, size h) at the rod ends: SPOOK's rows
  // about q̃ = retract(q, twist, h) predict the end at ũ + h(ω_{k+1} − ω_k) × ũ (the tangent of the
  // Jacobian's ω-block); the largest (l/2)|u_{k+1} − that| over the rods, in m. Centres move linearly,
  // so a joint or pin at rod ends is off by at most the sum of its two rods' values. `predicted` is scratch.
  double endLinearisationError(const Eigen::VectorXd& q, const Eigen::VectorXd& twist, const Eigen::VectorXd& qNext,
                               const Eigen::VectorXd& twistNext, double h, Eigen::VectorXd& predicted) const;
  // The same about a q̃ already retracted (SpookStepper::predictedPose(): the pose its last step linearised about).
  double endLinearisationErrorAbout(const Eigen::VectorXd& qTilde, const Eigen::VectorXd& twist,
                                    const Eigen::VectorXd& qNext, const Eigen::VectorXd& twistNext, double h) const;

  // Newton's geometric stiffness of the holonomic rows' forces on the rods' rotations, its diagonal: a rod's
  // torque impulse u × φ, φ = Σ_i (∂g_i/∂u)ᵀλ_i (director a-blocks at q, `lambda` SPOOK's stacked impulses),
  // turns with u_{k+1} = exp(hω)u_k: ∂(u × φ)/∂ω = −h[(u·φ)I − uφᵀ]. c = h max(u·φ, 0) on the rod's three
  // ω entries (tension stiffens; compression is left out so M + c stays positive), 0 elsewhere. For planar
  // motion (ω ⊥ u, φ in the plane) the uφᵀ part has no effect and c is the whole Newton term.
  void rotationStiffness(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda, double h, double t,
                         Eigen::VectorXd& c) const;

  // ConstrainedModel over the twist. Same coordinates, columns, groups and constraint indices as the
  // RodSystem, but unit-length constraints have 0 rows (S² holds them) and each row's u-block a
  // (∂g/∂u) becomes the ω-block u × a (g's rate a·u̇ = a·(ω × u) = (u × a)·ω).
  int coordinateCount() const override { return system_.coordinateCount(); }
  const Eigen::VectorXd& massDiagonal() const override { return system_.massDiagonal(); }  // m ×3, m l²/12 ×3
  const std::vector<ConstraintDesc>& constraints() const override { return descs_; }
  std::vector<std::string> groupNames() const override { return system_.groupNames(); }
  void evaluateConstraint(int i, const Eigen::VectorXd& q, double t, double* value, double* jac) const override;
  void constraintValue(int i, const Eigen::VectorXd& q, double t, double* value) const override;  // g: the RodSystem's
  void constraintValues(const Eigen::VectorXd& q, double t, double* stacked) const override;      // in one pass
  // One pass over the constant-block constraints' entries (their x-blocks constant, their ω-entries u × a with a
  // constant: both taken from evaluateConstraint's definition at construction), the others through it.
  bool evaluateStacked(const Eigen::VectorXd& q, double t, double* stacked, double* jac, const int* slot,
                       bool keepFixed) const override;
  // d/dt(J(q)) ν: the director curvature at u̇ = ω × u plus a·(ω × (ω × u)) from the u-blocks.
  void constraintCurvature(int i, const Eigen::VectorXd& q, const Eigen::VectorXd& twist, double t,
                           double* out) const override;
  void appliedForce(const Eigen::VectorXd& q, const Eigen::VectorXd& twist, double t, Eigen::VectorXd& f) const override {
    system_.appliedForce(q, twist, t, f);  // gravity on the centres, no torque
  }
  double potentialEnergy(const Eigen::VectorXd& q) const override { return system_.potentialEnergy(q); }

 private:
  struct UBlock {
    int position;  // index in the constraint's column list of the rod's first u column
    int offset;    // the rod's first coordinate
  };
  static void mapStructuralZeros(ConstraintDesc& d, const std::vector<UBlock>& blocks);  // u-blocks → ω-blocks
  // The RodSystem's director Jacobian block of constraint i at q (row-major, rows × columns): the copy taken at
  // construction for a block the same at every q (RodSystem::constantJacobian), else evaluated into `scratch`.
  const double* directorBlock(int i, const Eigen::VectorXd& q, double t, double* scratch) const;
  const RodSystem& system_;
  // The bodies' first coordinates, rods and particles apart: the per-body passes (retractions, twist ⇄ rates) read
  // 4 bytes per body instead of a 32-byte RodSystem::Body (480 KB at N = 5000).
  std::vector<int> rodOffsets_, particleOffsets_;
  std::vector<ConstraintDesc> descs_;
  std::vector<std::vector<UBlock>> uBlocks_;
  std::vector<double> constantBlocks_;  // the constant blocks, concatenated
  std::vector<int> constantStart_;      // per constraint: its block's start there, −1 if not constant
  // evaluateStacked's entries (k: the entry's index in the sequence evaluateStacked writes): constant ones, and
  // ω-block ones (u × a)_j = u_{j+1} a_{j+2} − u_{j+2} a_{j+1} = q[i1] c1 − q[i2] c2, as Eigen's cross computes it.
  struct FixedEntry {
    int k;
    double value;
  };
  struct CrossEntry {
    int k, i1, i2;
    double c1, c2;
  };
  // A u-block c·I over 3 rows (a ball joint's rod end: a_r = c e_r, zeros +0.0): its six stored ω-entries (row r,
  // j ≠ r) from u and c alone, with the same products as CrossEntry's (c or 0.0 for c1, c2).
  struct ScaledGroup {
    int u;
    double c;
    int k[6];
  };
  struct OtherBlock {
    int constraint, k;  // a constraint whose block depends on q, and its first entry
  };
  std::vector<FixedEntry> fixedEntries_;
  std::vector<CrossEntry> crossEntries_;
  std::vector<ScaledGroup> scaledGroups_;
  std::vector<OtherBlock> otherBlocks_;
  void buildStackedEntries();
  // rotationStiffness's terms, one per holonomic constraint and rod u-block in constraint order: the rows' director
  // u-blocks a = scale·I (a ball joint's rod end), else at block + r·stride in stiffnessBlocks_ (copies of
  // constantBlocks_'), or (block < 0) evaluated at q.
  struct StiffnessTerm {
    int constraint, row, rows, position, offset, block, stride;
    double scale;  // NaN: not c·I
  };
  std::vector<StiffnessTerm> stiffnessTerms_;
  std::vector<double> stiffnessBlocks_;
};

}  // namespace varsim
