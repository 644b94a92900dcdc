// engine/floating/floating_chain.cpp — the locked mass matrix of a floating tree (seed 002 eq. (45)) from the
// seed 003 tree's frame poses and body Jacobians, its exact gradient, and gravity on the whole chain.
#include "engine/floating/floating_chain.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <string>

#include "engine/sim/errors.h"

namespace varsim::floating {

namespace {

using tree::Drive;
using tree::Joint;
using tree::Tree;

void validateBody(const BodySpec& b, const std::string& what) {
  if (!(std::isfinite(b.mass) && b.mass > 0))
    throw BadInput(what + ": mass " + std::to_string(b.mass) + " outside (0, inf) kg");
  const Matrix3d& I = b.inertia;
  if (!I.allFinite() || (I - I.transpose()).norm() > 1e-12 * I.norm() ||
      Eigen::SelfAdjointEigenSolver<Matrix3d>(I).eigenvalues().minCoeff() <= 0)
    throw BadInput(what + ": inertia must be finite, symmetric and positive definite");
  if (!b.com.allFinite()) throw BadInput(what + ": centre of mass must be finite");
}

// A rotation whose z axis is `a` (unit): the hinge frame in which the tree's RotZ primitive turns about a.
Matrix3d frameAlong(const Vector3d& a) {
  const Vector3d t = std::abs(a.x()) < 0.9 ? Vector3d::UnitX() : Vector3d::UnitY();
  const Vector3d e1 = (t - t.dot(a) * a).normalized();
  Matrix3d R;
  R << e1, a.cross(e1), a;
  return R;
}

Matrix4d rigid(const Matrix3d& R, const Vector3d& x) {
  Matrix4d g = Matrix4d::Identity();
  g.topLeftCorner<3, 3>() = R, g.topRightCorner<3, 1>() = x;
  return g;
}

// II_i B for II_i = diag(I, m 1) (angular first) applied column-wise.
MatrixXd inertiaTimes(const BodySpec& b, const MatrixXd& B) {
  MatrixXd out(6, B.cols());
  out.topRows<3>() = b.inertia * B.topRows<3>();
  out.bottomRows<3>() = b.mass * B.bottomRows<3>();
  return out;
}

}  // namespace

FloatingChain::FloatingChain(const BodySpec& base, const std::vector<HingeSpec>& hinges)
    : m_(static_cast<int>(hinges.size())), hinges_(hinges) {
  validateBody(base, "floating chain base");
  BodySpec b0 = base;
  b0.com.setZero();  // the base frame IS the base c.o.m. frame
  bodies_.push_back(b0);
  tree_.setGravity(Vector3d::Zero());  // gravity is applied on SE(3) x R^m here, not through the tree
  frameOfBody_.push_back(tree_.addFixed(Tree::kWorld, Matrix4d::Identity()));
  tree_.addMass(frameOfBody_[0], b0.mass, b0.inertia);
  for (int i = 0; i < m_; ++i) {
    const HingeSpec& h = hinges[i];
    const std::string what = "floating chain hinge " + std::to_string(i + 1);
    validateBody(h.body, what);
    if (h.parent < 0 || h.parent > i)
      throw BadInput(what + ": parent " + std::to_string(h.parent) + " outside [0, " + std::to_string(i) + "]");
    if (!h.axis.allFinite() || std::abs(h.axis.norm() - 1.0) > 1e-6)
      throw BadInput(what + ": axis must be a unit vector (|a| = " + std::to_string(h.axis.norm()) + ")");
    if (!h.point.allFinite()) throw BadInput(what + ": hinge point must be finite");
    const Matrix3d Ra = frameAlong(h.axis);
    const Vector3d& bp = bodies_[h.parent].com;
    const int f1 = tree_.addFixed(frameOfBody_[h.parent], rigid(Ra, h.point - bp));
    const int f2 = tree_.addFrame(f1, Joint::RotZ, Drive::Dynamic);
    const int f3 = tree_.addFixed(f2, rigid(Ra.transpose(), Ra.transpose() * (h.body.com - h.point)));
    tree_.addMass(f3, h.body.mass, h.body.inertia);
    bodies_.push_back(h.body);
    frameOfBody_.push_back(f3);
  }
  for (const BodySpec& b : bodies_) totalMass_ += b.mass;
  tree_.setState(VectorXd::Zero(m_), VectorXd::Zero(m_));
}

void FloatingChain::setR(const VectorXd& r) const {
  if (r.size() != m_)
    throw BadInput("floating chain: r has " + std::to_string(r.size()) + " entries, need " + std::to_string(m_));
  tree_.setQ(r);
}

se3::Pose FloatingChain::bodyPose(const VectorXd& r, int i) const {
  setR(r);
  return se3::Pose::fromMatrix(tree_.g(frameOfBody_[i]));
}

MatrixXd FloatingChain::massMatrix(const VectorXd& r) const {
  setR(r);
  MatrixXd M = MatrixXd::Zero(dof(), dof());
  for (int i = 0; i < bodies(); ++i) {
    const int k = frameOfBody_[i];
    MatrixXd B = MatrixXd::Zero(6, dof());
    B.leftCols<6>() = se3::AdInv(se3::Pose::fromMatrix(tree_.g(k)));
    for (int c : tree_.dynamicAncestors(k)) B.col(6 + c) = tree_.dvbDqdot(k, c);
    M.noalias() += B.transpose() * inertiaTimes(bodies_[i], B);
  }
  return M;
}

// dB_i/dr_c = [-ad_{J_ic} A_i, dJ_i/dr_c] because d(g^{-1})/dr_c = -hat(J_ic) g^{-1} (J_ic = (g^{-1} dg/dr_c)^v);
// dJ_i/dr_c column j is the tree's d^2 V_i / dr_c drdot_j (seed 003 eq. (11)).
void FloatingChain::massMatrixAndGradient(const VectorXd& r, MatrixXd& M, std::vector<MatrixXd>& dM) const {
  setR(r);
  const int n = dof();
  M = MatrixXd::Zero(n, n);
  dM.assign(m_, MatrixXd::Zero(n, n));
  MatrixXd B(6, n), dB(6, n);
  for (int i = 0; i < bodies(); ++i) {
    const int k = frameOfBody_[i];
    const std::vector<int>& anc = tree_.dynamicAncestors(k);
    B.setZero();
    B.leftCols<6>() = se3::AdInv(se3::Pose::fromMatrix(tree_.g(k)));
    for (int c : anc) B.col(6 + c) = tree_.dvbDqdot(k, c);
    const MatrixXd IB = inertiaTimes(bodies_[i], B);
    M.noalias() += B.transpose() * IB;
    for (int c : anc) {
      dB.setZero();
      dB.leftCols<6>() = -se3::ad(B.col(6 + c)) * B.leftCols<6>();
      for (int j : anc) dB.col(6 + j) = tree_.ddvbDqDqdot(k, c, j);
      const MatrixXd t = dB.transpose() * IB;
      dM[c].noalias() += t + t.transpose();
    }
  }
}

Vector3d FloatingChain::centerOfMass(const VectorXd& r, Eigen::Matrix<double, 3, Eigen::Dynamic>* dcdr) const {
  setR(r);
  Vector3d c = Vector3d::Zero();
  if (dcdr) dcdr->setZero(3, m_);
  for (int i = 0; i < bodies(); ++i) {
    const int k = frameOfBody_[i];
    const Matrix4d g = tree_.g(k);
    const double w = bodies_[i].mass / totalMass_;
    c += w * g.topRightCorner<3, 1>();
    if (dcdr)  // d p_i / d r_c = R_i (J_ic)_v
      for (int a : tree_.dynamicAncestors(k))
        dcdr->col(a) += w * g.topLeftCorner<3, 3>() * tree_.dvbDqdot(k, a).tail<3>();
  }
  return c;
}

double FloatingChain::potential(const se3::Pose& g, const VectorXd& r, const Vector3d& gamma) const {
  return -totalMass_ * gamma.dot(g.act(centerOfMass(r)));
}

VectorXd FloatingChain::potentialGradient(const se3::Pose& g, const VectorXd& r, const Vector3d& gamma) const {
  Eigen::Matrix<double, 3, Eigen::Dynamic> dc;
  const Vector3d c = centerOfMass(r, &dc);
  const Vector3d Fb = totalMass_ * (g.R.transpose() * gamma);  // total weight in base axes
  VectorXd grad(dof());
  grad.head<3>() = -c.cross(Fb);  // d/ds V(g exp(s e_j)): the moment of the weight about the base origin
  grad.segment<3>(3) = -Fb;
  grad.tail(m_) = -dc.transpose() * Fb;
  return grad;
}

Vector6d FloatingChain::spatialMomentum(const se3::Pose& g, const VectorXd& P) {
  return se3::AdInvStar(g) * P.head<6>();
}

MatrixXd contractGradient(const std::vector<MatrixXd>& dM, const VectorXd& v) {
  MatrixXd out(v.size(), static_cast<Eigen::Index>(dM.size()));
  for (size_t c = 0; c < dM.size(); ++c) out.col(static_cast<Eigen::Index>(c)) = dM[c] * v;
  return out;
}

VectorXd quadraticGradient(const std::vector<MatrixXd>& dM, const VectorXd& v) {
  VectorXd out(static_cast<Eigen::Index>(dM.size()));
  for (size_t c = 0; c < dM.size(); ++c) out(static_cast<Eigen::Index>(c)) = v.dot(dM[c] * v);
  return out;
}

}  // namespace varsim::floating
