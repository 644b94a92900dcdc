// engine/tree/tree_lagrangian.cpp — seed 003 eqs. (15)–(18) and M, ∇M, ∇V as
// sums over masses; each mass only touches the dynamic variables of its
// ancestors (all other derivatives vanish).
#include "engine/tree/tree_lagrangian.h"

namespace varsim::tree {

namespace {

// Spatial inertia diag(I, m 1) applied to a twist (omega, v).
Vector6d inertiaApply(const Mass& b, const Vector6d& v) {
  Vector6d out;
  out.head<3>() = b.inertia * v.head<3>();
  out.tail<3>() = b.m * v.tail<3>();
  return out;
}

Eigen::Vector3d position(const Matrix4d& g) { return g.topRightCorner<3, 1>(); }

}  // namespace

double kineticEnergy(const Tree& t) {
  double T = 0;
  for (const Mass& b : t.masses()) {
    const Vector6d v = t.vb(b.frame);
    T += 0.5 * v.dot(inertiaApply(b, v));
  }
  return T;
}

double potentialEnergy(const Tree& t) {
  double V = 0;
  for (const Mass& b : t.masses()) V -= b.m * t.gravity().dot(position(t.g(b.frame)));
  return V;
}

double lagrangian(const Tree& t) { return kineticEnergy(t) - potentialEnergy(t); }

VectorXd gradV(const Tree& t) {
  VectorXd out = VectorXd::Zero(t.dof());
  for (const Mass& b : t.masses()) {
    for (int i : t.dynamicAncestors(b.frame)) out(i) -= b.m * t.gravity().dot(position(t.dg(b.frame, i)));
  }
  return out;
}

// sum over masses of (M_k v_k)^T dv_k/dx_i for the derivative dv/dx given by `deriv` (eq. 16 and dL/dqdot).
template <class F>
VectorXd momentumProjection(const Tree& t, F deriv) {
  VectorXd out = VectorXd::Zero(t.dof());
  for (const Mass& b : t.masses()) {
    const Vector6d Mv = inertiaApply(b, t.vb(b.frame));
    for (int i : t.dynamicAncestors(b.frame)) out(i) += Mv.dot(deriv(b.frame, i));
  }
  return out;
}

VectorXd dLdq(const Tree& t) {
  return momentumProjection(t, [&](int k, int i) { return t.dvbDq(k, i); }) - gradV(t);
}

VectorXd dLdqdot(const Tree& t) {
  return momentumProjection(t, [&](int k, int i) { return t.dvbDqdot(k, i); });
}

// sum over masses of (M_k dv/dx_i)^T dv/dy_j + (M_k v)^T d²v/dx_i dy_j: the kinetic part of eqs. (17)–(18)
// and of d²L/dq². `extra(k, b, i, j)` adds a per-mass term (the potential's second derivative).
template <class A, class B, class AB, class E>
MatrixXd hessianSum(const Tree& t, A dA, B dB, AB dAB, E extra) {
  MatrixXd out = MatrixXd::Zero(t.dof(), t.dof());
  for (const Mass& b : t.masses()) {
    const int k = b.frame;
    const Vector6d Mv = inertiaApply(b, t.vb(k));
    for (int i : t.dynamicAncestors(k)) {
      const Vector6d Mdi = inertiaApply(b, dA(k, i));
      for (int j : t.dynamicAncestors(k)) out(i, j) += Mdi.dot(dB(k, j)) + Mv.dot(dAB(k, i, j)) + extra(b, i, j);
    }
  }
  return out;
}

MatrixXd d2LdqDq(const Tree& t) {
  auto dq = [&](int k, int i) { return t.dvbDq(k, i); };
  auto potential = [&](const Mass& b, int i, int j) {
    return b.m * t.gravity().dot(position(t.ddg(b.frame, i, j)));  // -d²V/dq_i dq_j
  };
  return hessianSum(
      t, dq, dq, [&](int k, int i, int j) { return t.ddvbDqDq(k, i, j); }, potential);
}

MatrixXd d2LdqDqdot(const Tree& t) {
  return hessianSum(
      t, [&](int k, int i) { return t.dvbDq(k, i); }, [&](int k, int j) { return t.dvbDqdot(k, j); },
      [&](int k, int i, int j) { return t.ddvbDqDqdot(k, i, j); }, [](const Mass&, int, int) { return 0.0; });
}

MatrixXd massMatrix(const Tree& t) {
  MatrixXd out = MatrixXd::Zero(t.dof(), t.dof());
  for (const Mass& b : t.masses()) {
    const int k = b.frame;
    for (int i : t.dynamicAncestors(k)) {
      const Vector6d MJi = inertiaApply(b, t.dvbDqdot(k, i));
      for (int j : t.dynamicAncestors(k)) {
        if (j >= i) out(i, j) += MJi.dot(t.dvbDqdot(k, j));
      }
    }
  }
  return out.selfadjointView<Eigen::Upper>();
}

std::vector<MatrixXd> massMatrixGradient(const Tree& t) {
  const int n = t.dof();
  std::vector<MatrixXd> out(n, MatrixXd::Zero(n, n));
  for (const Mass& b : t.masses()) {
    const int k = b.frame;
    const std::vector<int>& anc = t.dynamicAncestors(k);
    std::vector<Vector6d, Eigen::aligned_allocator<Vector6d>> MJ;
    for (int a : anc) MJ.push_back(inertiaApply(b, t.dvbDqdot(k, a)));
    for (int c : anc) {
      // dM_ab/dq_c = (d²v/dq_c dqdot_a)^T M_k J_b + J_a^T M_k d²v/dq_c dqdot_b;
      // accumulate one half twice.
      for (size_t pa = 0; pa < anc.size(); ++pa) {
        const Vector6d dJa = t.ddvbDqDqdot(k, c, anc[pa]);
        for (size_t pb = 0; pb < anc.size(); ++pb) {
          const double s = dJa.dot(MJ[pb]);
          out[c](anc[pa], anc[pb]) += s;
          out[c](anc[pb], anc[pa]) += s;
        }
      }
    }
  }
  return out;
}

MatrixXd contractRows(const std::vector<MatrixXd>& gradM, const VectorXd& v) {
  const auto n = static_cast<Eigen::Index>(gradM.size());
  MatrixXd out(n, n);
  for (Eigen::Index i = 0; i < n; ++i) out.row(i) = v.transpose() * gradM[i];
  return out;
}

MatrixXd contractColumns(const std::vector<MatrixXd>& gradM, const VectorXd& v) {
  const auto n = static_cast<Eigen::Index>(gradM.size());
  MatrixXd out(n, n);
  for (Eigen::Index i = 0; i < n; ++i) out.col(i) = gradM[i] * v;
  return out;
}

}  // namespace varsim::tree
