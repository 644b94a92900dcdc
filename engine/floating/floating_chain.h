// engine/floating/floating_chain.h — a free-floating tree of rigid bodies joined by hinges (seed 002 Sec. 5):
// configuration q = (g, r) in SE(3) x R^m with g the pose of the base body, velocity v = (xi, rdot). Builds
// the locked mass matrix M(r) of eq. (45) and its gradient dM/dr_c in the BASE frame from a seed 003 tree
// whose world is the base (engine/tree, used read-only), plus gravity's potential and trivialized gradient.
#pragma once

#include <vector>

#include "engine/lie/se3.h"
#include "engine/tree/tree.h"

namespace varsim::floating {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// One rigid body: mass and inertia about its centre of mass in its own axes (which, at r = 0, are the base's).
struct BodySpec {
  double mass = 1.0;                        // kg, > 0
  Matrix3d inertia = Matrix3d::Identity();  // kg m^2, symmetric positive definite, about the c.o.m.
  Vector3d com = Vector3d::Zero();          // c.o.m. in the base frame at r = 0, m (base body: its origin)
};

// A hinge joining body `parent` (0 = base, i = the i-th jointed body, must be < this one) to a body.
struct HingeSpec {
  int parent = 0;
  Vector3d axis = Vector3d::UnitZ();  // unit vector, base frame at r = 0
  Vector3d point = Vector3d::Zero();  // a point on the hinge line, base frame at r = 0, m
  BodySpec body;
};

// The tree-structured system of seed 002 eq. (45). Body 0 is the base; its frame origin is the base c.o.m.
// and its momentum is about that point. Body i >= 1 hangs on hinge i-1 whose angle is r_{i-1}.
class FloatingChain {
 public:
  // Throws BadInput (naming `what`) on masses <= 0, inertia not SPD, non-unit axes or a bad parent.
  FloatingChain(const BodySpec& base, const std::vector<HingeSpec>& hinges);

  int joints() const { return m_; }   // m
  int dof() const { return 6 + m_; }  // n = 6 + m
  int bodies() const { return m_ + 1; }
  const BodySpec& body(int i) const { return bodies_[i]; }
  const HingeSpec& hinge(int i) const { return hinges_[i]; }  // i = 0..m-1 (joins hinge(i).parent to body i+1)
  double totalMass() const { return totalMass_; }

  // g_{0i}(r): pose of body i's c.o.m. frame in the base frame (body 0: identity).
  se3::Pose bodyPose(const VectorXd& r, int i) const;
  // Eq. (45): M(r) = sum_i B_i^T II_i B_i with B_i = [Ad_{g_{0i}^{-1}}, J_i(r)] (V_i = A_i xi + J_i rdot).
  MatrixXd massMatrix(const VectorXd& r) const;
  // M(r) and dM/dr_c for c = 0..m-1 (the tensor grad M of seed 002 eq. (49)).
  void massMatrixAndGradient(const VectorXd& r, MatrixXd& M, std::vector<MatrixXd>& dM) const;
  // Composite c.o.m. in the base frame and its Jacobian d c / d r (3 x m).
  Vector3d centerOfMass(const VectorXd& r, Eigen::Matrix<double, 3, Eigen::Dynamic>* dcdr = nullptr) const;

  // Uniform gravity (acceleration `gamma`, world): V(g, r) = -M_tot gamma . (x + R c(r)), and its gradient
  // (g* grad_g V ; grad_r V) of seed 002 eq. (49) (left-trivialized on SE(3), Definition 5.1).
  double potential(const se3::Pose& g, const VectorXd& r, const Vector3d& gamma) const;
  VectorXd potentialGradient(const se3::Pose& g, const VectorXd& r, const Vector3d& gamma) const;

  // Kinetic energy 1/2 v^T M v and the spatial momentum (L about the world origin; p) of a node momentum P
  // (base-frame, left-trivialized): Ad_{g^{-1}}^T P_xi (ERRATA eq. (65)).
  static Vector6d spatialMomentum(const se3::Pose& g, const VectorXd& P);

  const tree::Tree& tree() const { return tree_; }

 private:
  void setR(const VectorXd& r) const;

  int m_ = 0;
  std::vector<BodySpec> bodies_;
  std::vector<HingeSpec> hinges_;
  std::vector<int> frameOfBody_;  // tree frame carrying body i's mass
  double totalMass_ = 0.0;
  mutable tree::Tree tree_;  // world = the base frame; its state is a cache of r
};

// d(ad_xi^T) etc. helpers used by the integrators: [dM_c v]_c as an n x m matrix.
MatrixXd contractGradient(const std::vector<MatrixXd>& dM, const VectorXd& v);
// (v^T dM_c v)_c, the m-vector of (I_n (x) v^T) grad M v in seed 002 eq. (49).
VectorXd quadraticGradient(const std::vector<MatrixXd>& dM, const VectorXd& v);

}  // namespace varsim::floating
