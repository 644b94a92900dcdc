// Block back end of SparseSolver (issue 16 item 2): the Schur complement on the constraint space,
// S = J M⁻¹ Jᵀ + D (SPD for D > 0, M diagonal), y = S⁻¹(t − J M⁻¹ r), x = M⁻¹(r + Jᵀ y), with S
// factored as a block-tridiagonal Cholesky over the breadth-first levels of the constraint graph
// (block_tridiagonal_layout.h). Ladders and chains have a one-dimensional graph: levels are a few
// rows wide and the cost is linear in N. The factorisation is "twisted": levels 0…m−1 are
// eliminated upwards and L−1…m+1 downwards, each chain assembling its own part of S body by body,
// and both meet at the middle level m. With threads = 2 the chains run concurrently (one persistent
// helper thread); the arithmetic is the same for 1 and 2 threads, so the results are bit-identical.
// factor() only records its operands: solve() factors, fused with the subtraction of J M⁻¹ r and the
// forward substitution level by level while each level is in cache (one pass over J and the factor
// instead of three; a second solve() of the same operands factors again: SPOOK solves once). The
// layout is built once per J pattern; factor() and solve() allocate nothing. A pivot that cancels
// below 1e-13 of its diagonal (or a non-positive one) is a SingularSystem (thrown by that solve).
#pragma once
#include <memory>
#include <vector>

#include "engine/solvers/block_tridiagonal_layout.h"
#include "engine/solvers/solver_worker.h"
#include "engine/solvers/sparse_solver.h"

namespace varsim {

class BlockTridiagonalSolver : public SparseSolver {
 public:
  SparseSolverKind kind() const override { return SparseSolverKind::Block; }
  using SparseSolver::factor;  // also the one without a pattern id or shift
  void factor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag, long patternId,
              const Eigen::VectorXd* massShift) override;
  void setThreads(int threads) override;  // 1 or 2 (throws BadInput otherwise)
  int threads() const { return threads_; }
  int levels() const { return layout_ ? layout_->levelCount() : 0; }
  int maxLevelWidth() const { return layout_ ? layout_->maxWidth : 0; }
  const BlockLayout* layout() const { return layout_.get(); }

 protected:
  void solveFactored(const Eigen::VectorXd& r, const Eigen::VectorXd& t, Eigen::VectorXd& x,
                     Eigen::VectorXd& y) override;
  bool checksResidual() const override { return true; }  // fused into the pass that computes x

 private:
  using Phase = void (BlockTridiagonalSolver::*)(int lane);
  void factorLane(int lane);  // assembles the lane's part of S and eliminates its chain, level by level
  void assembleHome(int k, int lane);
  void factorDeferred(const Eigen::VectorXd& r, const Eigen::VectorXd& t);  // factor + w = L⁻¹(t − J M⁻¹ r)
  void forwardLevel(const BlockLevel& lv);
  void zeroLevel(const BlockLevel& lv);
  void zeroLevel(int offset, int count);
  void factorMiddle();
  void backwardLane(int lane);
  void prefetchLevel(const BlockLevel& lv, bool forWrite) const;
  void solveMiddle();
  void sendForward(const BlockLevel& lv);
  void addD(const BlockLevel& lv, int lane);  // S_kk += D_k; its diagonal into the lane's diag0_
  void choleskyLevel(int k, int lane);         // throws SingularSystem naming level k
  // Runs phase(0) and phase(1): lane 1 on the helper thread with 2 threads, else one after the other. The lanes
  // write disjoint data, so the order does not change a bit of the result.
  void twoLanes(Phase phase);
  static void runPendingLaneOne(void* self);  // the helper thread's job: pending_(1)

  std::unique_ptr<BlockLayout> layout_;
  std::vector<double> store_;
  std::vector<double> im_[2], rim_[2], h_[2];  // per-lane scratch of one home: M⁻¹, M⁻¹ r on its columns, J M⁻¹
  std::vector<double> diag0_[2];               // and of one level: S_kk's diagonal before its Cholesky (pivot check)
  Eigen::VectorXd w_;
  const Eigen::VectorXd* r_ = nullptr;  // the right-hand side while factorDeferred runs
  long n_ = 0, m_ = 0;
  int threads_ = 1;
  // Software prefetch of the store kPrefetchLevels levels ahead of both sweeps, once the store is larger than
  // kPrefetchStoreBytes (the L2 of our 2-core hosts: below it the store stays cached between the sweeps and the
  // prefetches measured +1-2 % at N = 100). bench_ladder --step, rigid ladder N = 5000, alternated pairs on the stop-26
  // host: −2 to −5 % in one hour, −0.5 % in the next; 4 and 8 levels alike, 3 about half of it.
  static constexpr int kPrefetchLevels = 8;
  static constexpr size_t kPrefetchStoreBytes = size_t(1) << 20;
  bool prefetchStore() const { return store_.size() * sizeof(double) > kPrefetchStoreBytes; }
  Phase pending_ = nullptr;
  SolverWorker worker_;
};

}  // namespace varsim
