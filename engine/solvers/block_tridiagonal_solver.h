// Block back end of SparseSolver (issue 16 item 2): the Schur complement on the constraint space,
// S = J M⁻¹ Jᵀ + D (SPD for D > 0, M diagonal), y = S⁻¹(t − J M⁻¹ r), x = M⁻¹(r + Jᵀ y), with S
// factored as a block-tridiagonal Cholesky. The blocks are the level sets of a breadth-first search
// of the constraint graph (rows adjacent when they share a coordinate) from a pseudo-peripheral row
// (Gibbs–Poole–Stockmeyer): rows sharing a coordinate are at most one level apart, so S has nonzero
// blocks only on and next to the diagonal. Ladders and chains have a one-dimensional graph, so the
// levels are a few rows wide and the cost is linear in N with small dense blocks (Eigen, in place).
// The levels, S's block layout and the list of J M⁻¹ Jᵀ products are built once per J pattern; a
// factor() and solve() allocate nothing. A pivot that cancels below 1e-13 of its diagonal (or a
// non-positive one) is a SingularSystem, as for the LDLᵀ back end.
#pragma once
#include <vector>

#include "engine/solvers/sparse_solver.h"

namespace varsim {

class BlockTridiagonalSolver : public SparseSolver {
 public:
  SparseSolverKind kind() const override { return SparseSolverKind::Block; }
  void factor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag) override;
  int levels() const { return int(levelStart_.size()) - 1; }
  int maxLevelWidth() const { return maxWidth_; }

 protected:
  void solveFactored(const Eigen::VectorXd& r, const Eigen::VectorXd& t, Eigen::VectorXd& x,
                     Eigen::VectorXd& y) override;

 private:
  struct Product {  // store_[target] += J[p] J[q] / M[column]
    int target, p, q, column;
  };
  void analyse(const SparseMatrixD& J);
  void orderLevels(const SparseMatrixD& J);
  int width(int k) const { return levelStart_[size_t(k) + 1] - levelStart_[size_t(k)]; }

  std::vector<int> levelStart_;  // rows of level k are at positions levelStart_[k] .. levelStart_[k+1]
  std::vector<int> position_;    // row → position in level order
  std::vector<int> diagOff_;     // store_ offset of the lower-triangular diagonal block of level k
  std::vector<int> subOff_;      // store_ offset of the block (level k+1, level k), k < levels − 1
  std::vector<int> diagEntry_;   // store_ index of S_ii for the row at each position
  std::vector<Product> products_;
  std::vector<double> store_, diag0_;
  Eigen::VectorXd invM_, w_;
  const SparseMatrixD* jac_ = nullptr;
  int maxWidth_ = 0;
  long n_ = 0, m_ = 0;
};

}  // namespace varsim
