// engine/tree/tree_lagrangian.h — seed 003 Sec. VI on a Tree at its current
// state (q, qdot): the Lagrangian (15), dL/dq (16), the Hessians (17)–(18),
// M(q), the tensor ∇M(q) of seed 002 eq. (21) and ∇V (gravity), all sums over
// masses of the memoised frame quantities (nothing symbolic), regrouped through
// the tree's composite inertia/momentum (O(N) first, O(N^2) second derivatives
// on an N-link chain). The out-parameter forms reuse the caller's storage.
#pragma once

#include <vector>

#include "engine/tree/tree.h"

namespace varsim::tree {

using Eigen::MatrixXd;

double kineticEnergy(const Tree& t);    // sum 1/2 v_k^T M_k v_k
double potentialEnergy(const Tree& t);  // V = -sum m_k gravity . p_k
double lagrangian(const Tree& t);       // eq. (15): T - V
VectorXd dLdq(const Tree& t);           // eq. (16)
VectorXd dLdqdot(const Tree& t);        // dL/dqdot_i = sum v^T M_k dv/dqdot_i
MatrixXd d2LdqDq(const Tree& t);        // d²L/dq_i dq_j (needed by the midpoint Jacobian)
MatrixXd d2LdqDqdot(const Tree& t);     // eq. (17): entry (i, j) = d²L/dq_i dqdot_j
MatrixXd massMatrix(const Tree& t);     // eq. (18) = M(q) (v is linear in qdot, so
                                        // (18)'s 2nd term is 0)
VectorXd gradV(const Tree& t);          // dV/dq
// The three second-derivative matrices of one state in one pass (any may be
// nullptr): Lqq = d2LdqDq, Lqv = d2LdqDqdot, M = massMatrix. Outputs are
// resized only when their size differs.
void lagrangianHessians(const Tree& t, MatrixXd* Lqq, MatrixXd* Lqv, MatrixXd* M);
void dLdq(const Tree& t, VectorXd& out);
void dLdqdot(const Tree& t, VectorXd& out);
void gradV(const Tree& t, VectorXd& out);
// ∇M of seed 002 eq. (21): entry c is dM/dq_c.
std::vector<MatrixXd> massMatrixGradient(const Tree& t);
// Seed 002 eq. (21)'s contractions: [(I ⊗ v^T)∇M]_{ij} = sum_l dM_{lj}/dq_i
// v_l, and ∇M^T (I ⊗ v) = [dM/dq_1 v, ..., dM/dq_n v] (M symmetric).
MatrixXd contractRows(const std::vector<MatrixXd>& gradM, const VectorXd& v);
// contractRows(massMatrixGradient(t), v) without the tensor, O(N^2) on a chain: entry (i, j) =
// d(M v)_j/dq_i = d²L/dq_i dqdot_j at velocity v with kinematic rates 0. contractColumns(∇M, v) is its
// transpose (M symmetric).
void massGradientContraction(const Tree& t, const VectorXd& v, MatrixXd& out);
MatrixXd massGradientContraction(const Tree& t, const VectorXd& v);
MatrixXd contractColumns(const std::vector<MatrixXd>& gradM, const VectorXd& v);

}  // namespace varsim::tree
