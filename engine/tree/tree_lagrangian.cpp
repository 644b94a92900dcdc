// engine/tree/tree_lagrangian.cpp — seed 003 eqs. (15)–(18) and M, ∇M, ∇V. Each is a sum over masses k of
// products of the frame quantities of eqs. (1)–(11); a term in q_i or qdot_i only involves masses below
// the frame f_i of i, and below f_i every such quantity is its value at f_i moved by Ad (the non-own
// cases of eqs. 3, 4, 7–10), while brackets and pairings are Ad-invariant. So the sum over those masses is
// the value at f_i paired with the composite inertia / momentum of f_i's subtree (tree_composite.cpp):
//   dL/dqdot_i = W_f . xi_i,  dL/dq_i = W_f . dv_f/dq_i + W^g_f . xi_i  (W^g: the weights, Tree),
// and for j an ancestor variable of i (or i itself), with X = dv_f/dqdot_j, Y = dv_f/dq_j,
//   M_ij = (Ic xi_i) . X,   d²L/dq_i dqdot_j = c_i . X,   d²L/dq_j dqdot_i = (Ic xi_i) . Y  (j != i),
//   d²L/dq_i dq_j = c_i . Y + e_i . X_omega,
// with c_i = Ic dv_f/dq_i - ad_{xi_i}^T W_f (the own cases of eqs. 8–9 paired with W_f), gamma_f = R_f^T
// gravity, u_i = omega_i x h_f + m_f v_i (the masses' first moment moved by eq. 3's own case) and
// e_i = u_i x gamma_f (eq. 4's own case through g^{-1} dg/dq_j = hat(dv/dqdot_j), the definition (5)-(6) of
// v^b). Cost O(pairs on a path) instead of O(masses x pairs); checked against finite differences.
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

// What every sum over the masses below the frame f of variable i needs from f.
struct DofTerms {
  int f = 0;
  Vector6d xi;                   // dv_f/dqdot_i (eq. 10, own case)
  BodyInertia Ic;                // of sub(f)
  Eigen::Vector3d gravityF, u;  // gravity in f's coordinates; sum m_k R_f^T dp_k/dq_i
};

DofTerms dofTerms(const Tree& t, int i) {
  DofTerms d;
  d.f = t.frameOfDof(i);
  d.xi = t.dvbDqdot(d.f, i);
  d.Ic = t.compositeInertia(d.f);
  d.gravityF = t.gravityIn(d.f);
  d.u = d.xi.head<3>().cross(d.Ic.h) + d.Ic.m * d.xi.tail<3>();
  return d;
}

// Sum over masses of m_k gravity . dp_k/dq_i = -dV/dq_i: the weights paired with xi_i (eq. 3's own case).
double weightWork(const Tree& t, int i) {
  const int f = t.frameOfDof(i);
  return t.compositeWeight(f).dot(t.dvbDqdot(f, i));
}

void resizeZero(MatrixXd* m, int n) {
  if (m) m->setZero(n, n);  // no reallocation when the size is unchanged
}

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

void gradV(const Tree& t, VectorXd& out) {
  t.sweep();
  out.resize(t.dof());
  for (int i = 0; i < t.dof(); ++i) out(i) = -weightWork(t, i);
}

void dLdq(const Tree& t, VectorXd& out) { t.lagrangianGradients(&out, nullptr); }

void dLdqdot(const Tree& t, VectorXd& out) { t.lagrangianGradients(nullptr, &out); }

VectorXd gradV(const Tree& t) {
  VectorXd out;
  gradV(t, out);
  return out;
}

VectorXd dLdq(const Tree& t) {
  VectorXd out;
  dLdq(t, out);
  return out;
}

VectorXd dLdqdot(const Tree& t) {
  VectorXd out;
  dLdqdot(t, out);
  return out;
}

void lagrangianHessians(const Tree& t, MatrixXd* Lqq, MatrixXd* Lqv, MatrixXd* M) {
  const int n = t.dof();
  t.sweep();
  resizeZero(Lqq, n), resizeZero(Lqv, n), resizeZero(M, n);
  const bool velocityTerms = Lqq || Lqv;
  for (int i = 0; i < n; ++i) {
    const DofTerms d = dofTerms(t, i);
    const Vector6d a = d.Ic.apply(d.xi);
    Vector6d c = Vector6d::Zero();
    Eigen::Vector3d e = Eigen::Vector3d::Zero();
    if (velocityTerms) {
      c = d.Ic.apply(t.dvbDq(d.f, i)) - adTransposeApply(d.xi, t.compositeMomentum(d.f));
      e = d.u.cross(d.gravityF);
    }
    const std::vector<int>& anc = t.dynamicAncestors(d.f);  // i last
    const Vector6d* X = t.dvbDqdotRow(d.f);
    const Vector6d* Y = velocityTerms ? t.dvbDqRow(d.f) : nullptr;
    for (size_t p = 0; p < anc.size(); ++p) {
      const int j = anc[p];
      if (M) (*M)(i, j) = (*M)(j, i) = a.dot(X[p]);
      if (!velocityTerms) continue;
      if (Lqv) {
        (*Lqv)(i, j) = c.dot(X[p]);
        if (j != i) (*Lqv)(j, i) = a.dot(Y[p]);
      }
      if (Lqq) (*Lqq)(i, j) = (*Lqq)(j, i) = c.dot(Y[p]) + e.dot(X[p].head<3>());
    }
  }
}

MatrixXd d2LdqDq(const Tree& t) {
  MatrixXd out;
  lagrangianHessians(t, &out, nullptr, nullptr);
  return out;
}

MatrixXd d2LdqDqdot(const Tree& t) {
  MatrixXd out;
  lagrangianHessians(t, nullptr, &out, nullptr);
  return out;
}

MatrixXd massMatrix(const Tree& t) {
  MatrixXd out;
  lagrangianHessians(t, nullptr, nullptr, &out);
  return out;
}

// dM_ab/dq_c = [X_a, X_c] . Ic X_b (c below a) + Ic X_a . [X_b, X_c] (c below b), X = dv/dqdot (eq. 9:
// dX_a/dq_c = [X_a, X_c] for c strictly below a, else 0), summed over the masses below the deepest of the
// three frames, i.e. evaluated there with its composite inertia. Positions along a path ascend with depth.
std::vector<MatrixXd> massMatrixGradient(const Tree& t) {
  const int n = t.dof();
  std::vector<MatrixXd> out(n, MatrixXd::Zero(n, n));
  std::vector<Vector6d, Eigen::aligned_allocator<Vector6d>> X, IX;
  for (int x = 0; x < n; ++x) {  // x: the deepest of the three
    const int f = t.frameOfDof(x);
    const std::vector<int>& anc = t.dynamicAncestors(f);
    const BodyInertia Ic = t.compositeInertia(f);
    const size_t last = anc.size() - 1;
    X.clear(), IX.clear();
    for (int a : anc) X.push_back(t.dvbDqdot(f, a)), IX.push_back(Ic.apply(X.back()));
    for (size_t pa = 0; pa <= last; ++pa) {
      for (size_t pb = 0; pb <= last; ++pb) {
        const bool xAmongAB = pa == last || pb == last;
        for (size_t pc = xAmongAB ? 0 : last; pc <= last; ++pc) {
          double s = 0;
          if (pc > pa) s += adApply(X[pa], X[pc]).dot(IX[pb]);
          if (pc > pb) s += IX[pa].dot(adApply(X[pb], X[pc]));
          out[anc[pc]](anc[pa], anc[pb]) = s;
        }
      }
    }
  }
  return out;
}

// The d²L/dq dqdot pass of lagrangianHessians with the tree's velocity replaced by V = sum_a v_a X_a: at the
// frame f of the deeper variable x, with the row X and prefix P_p = sum_{p' < p} v_{anc p'} X_p' (velocity
// from the variables above anc p), dV/dq_{anc p} = [P_p, X_p] (eq. 7 carried to f) and W^v from
// Tree::compositeMomentumFor.
void massGradientContraction(const Tree& t, const VectorXd& v, MatrixXd& out) {
  const int n = t.dof();
  out.setZero(n, n);
  std::vector<Vector6d, Eigen::aligned_allocator<Vector6d>> Wv;
  t.compositeMomentumFor(v, Wv);
  for (int x = 0; x < n; ++x) {
    const DofTerms d = dofTerms(t, x);
    const std::vector<int>& anc = t.dynamicAncestors(d.f);
    const Vector6d* X = t.dvbDqdotRow(d.f);
    const Vector6d a = d.Ic.apply(d.xi);
    Vector6d P = Vector6d::Zero();
    for (size_t p = 0; p + 1 < anc.size(); ++p) {
      out(anc[p], x) = a.dot(adApply(P, X[p]));
      P += v(anc[p]) * X[p];
    }
    const Vector6d c = d.Ic.apply(adApply(P, d.xi)) - adTransposeApply(d.xi, Wv[size_t(d.f)]);
    for (size_t p = 0; p < anc.size(); ++p) out(x, anc[p]) = c.dot(X[p]);
  }
}

MatrixXd massGradientContraction(const Tree& t, const VectorXd& v) {
  MatrixXd out;
  massGradientContraction(t, v, out);
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
