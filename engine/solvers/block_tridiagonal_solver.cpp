// Twisted block-tridiagonal Schur-complement solve (see block_tridiagonal_solver.h). The dense kernels
// (block_dense_kernels.h) are plain loops over column-major blocks a few rows wide (Eigen's general kernels
// cost more in set-up than in arithmetic at these sizes), unrolled for the sizes the rod models produce.
#include "engine/solvers/block_tridiagonal_solver.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "engine/solvers/block_dense_kernels.h"

namespace varsim {

namespace {
using namespace blockkernel;

// store[target] += G_a · H_b for each structural S entry of a group with Cols columns.
template <int Cols>
void scatterPairs(const BlockLayout::Pair* pr, const BlockLayout::Pair* end, const double* G, const double* H, double* store) {
  for (; pr != end; ++pr) {
    const double* a = G + pr->a;
    const double* b = H + pr->b;
    double s = a[0] * b[0];
    for (int c = 1; c < Cols; ++c) s += a[c] * b[c];
    store[pr->target] += s;
  }
}
}  // namespace

void BlockTridiagonalSolver::setThreads(int threads) {
  SparseSolver::setThreads(threads);
  threads_ = threads;
}

void BlockTridiagonalSolver::runPendingLaneOne(void* self) {
  BlockTridiagonalSolver& solver = *static_cast<BlockTridiagonalSolver*>(self);
  (solver.*solver.pending_)(1);
}

void BlockTridiagonalSolver::twoLanes(Phase phase, bool parallel) {
  if (threads_ < 2 || !parallel) {
    (this->*phase)(0);
    (this->*phase)(1);
    return;
  }
  pending_ = phase;
  worker_.run(&BlockTridiagonalSolver::runPendingLaneOne, this);
  std::exception_ptr first;
  try {
    (this->*phase)(0);
  } catch (...) {
    first = std::current_exception();
  }
  try {
    worker_.join();
  } catch (...) {
    if (!first) first = std::current_exception();
  }
  if (first) std::rethrow_exception(first);  // lane 0's error first, as with one thread
}

void BlockTridiagonalSolver::factor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag) {
  const bool samePattern = beginFactor(massDiag, J, dDiag);
  if (massChanged()) invMValid_ = false;
  if (!samePattern || !layout_) {
    const auto start = SteadyClock::now();
    layout_ = std::make_unique<BlockLayout>(J);
    n_ = J.cols();
    m_ = J.rows();
    store_.assign(size_t(layout_->storeSize), 0.0);
    for (auto* scratch : {&g_[0], &g_[1], &h_[0], &h_[1]}) scratch->assign(size_t(layout_->maxGroupBlock), 0.0);
    diag0_.assign(size_t(m_), 0.0);
    invM_.resize(n_);
    w_.resize(m_ + (layout_->levels.empty() ? 0 : layout_->levels[size_t(layout_->middle)].width));
    stats_.analyseUs = microsecondsSince(start);
    ++stats_.analyses;
    invMValid_ = false;
  }
  jac_ = &J;
  dDiag_ = &factoredD();
  if (!invMValid_) {  // M changed (or a new layout): M is constant in most scenes, its n divisions once
    invM_ = massDiag.cwiseInverse();
    invMValid_ = true;
  }
  stats_.factorUs = 0;  // timed by the solve that factors
  ++stats_.factorizations;
  stats_.matrixNnz = long(layout_->structuralPairs);
  stats_.factorNnz = long(store_.size());
}

// The deferred factorisation, fused with the first half of the solve: w starts as t in level order, each
// group subtracts its J M⁻¹ r while its J block is in scratch, and each level is forward-substituted as
// soon as it is factored (factorLane). The lower chain's share of the middle level is added at the end.
void BlockTridiagonalSolver::factorDeferred(const Eigen::VectorXd& r, const Eigen::VectorXd& t) {
  const auto start = SteadyClock::now();
  const std::vector<int>& position = layout_->position;
  for (long i = 0; i < m_; ++i) w_[position[size_t(i)]] = t[i];
  std::fill(w_.data() + m_, w_.data() + w_.size(), 0.0);
  r_ = &r;
  twoLanes(&BlockTridiagonalSolver::factorLane);
  r_ = nullptr;
  factorMiddle();
  if (!layout_->levels.empty()) {
    const BlockLevel& mid = layout_->levels[size_t(layout_->middle)];
    for (int i = 0; i < mid.width; ++i) w_[mid.start + i] += w_[m_ + i];
  }
  const double us = microsecondsSince(start);
  stats_.factorUs = factorInSolveUs_ = us;
}

// Level by level while its blocks are hot in cache: zero the next level's blocks, assemble the groups
// whose first level is k (and their J M⁻¹ r into w), add D, then L_k L_kᵀ = S_kk, C_k = S(next, k) L_k⁻ᵀ on
// the coupling corner, S_next −= C_k C_kᵀ on its receiving rows (into the middle level: deferred to
// factorMiddle) and the forward substitution of level k.
void BlockTridiagonalSolver::factorLane(int lane) {
  const BlockLayout& lay = *layout_;
  if (lay.levels.empty()) return;
  const std::vector<int>& chain = lay.chain[lane];
  const BlockLevel& mid = lay.levels[size_t(lay.middle)];
  if (lane == 1) zeroLevel(lay.extraOff, packedSize(mid.width));
  if (!chain.empty()) zeroLevel(lay.levels[size_t(chain.front())]);
  else if (lane == 0) zeroLevel(mid);
  for (int k : chain) {
    const BlockLevel& lv = lay.levels[size_t(k)];
    if (lane == 0 || lv.next != lay.middle) zeroLevel(lay.levels[size_t(lv.next)]);  // the middle block is lane 0's
    assembleHome(k, lane);
    for (int p = lv.start; p < lv.start + lv.width; ++p) {
      double& e = store_[size_t(lay.diagEntry[size_t(p)])];
      e += (*dDiag_)[lay.rowAt[size_t(p)]];
      diag0_[size_t(p)] = e;
    }
    choleskyLevel(k);
    const int c = lv.width - lv.sendCol;
    if (lv.recvRows > 0 && c > 0) {
      double* C = store_.data() + lv.coupOff;
      const BlockLevel& nx = lay.levels[size_t(lv.next)];
      withSize(lv.recvRows, [&](auto r) {
        solveRightLowerTransposed(C, r, c, store_.data() + lv.diagOff + packedIndex(lv.width, lv.sendCol, lv.sendCol));
        if (lv.next != lay.middle)
          subtractGram(store_.data() + nx.diagOff + packedIndex(nx.width, lv.recvRow, lv.recvRow), nx.width - lv.recvRow, C, r, c);
      });
    }
    forwardLevel(lv);  // w_k is complete: its groups (homes k and the level before) are assembled
  }
  if (lane == 0) assembleHome(lay.middle, 0);  // groups inside the middle level (lane 0 by convention)
}

// A level's diagonal block and its coupling block (stored right after it).
void BlockTridiagonalSolver::zeroLevel(const BlockLevel& lv) {
  zeroLevel(lv.diagOff, packedSize(lv.width) + (lv.next < 0 ? 0 : lv.recvRows * (lv.width - lv.sendCol)));
}
void BlockTridiagonalSolver::zeroLevel(int offset, int count) { std::fill_n(store_.data() + offset, count, 0.0); }

// S += J M⁻¹ Jᵀ of the groups whose home is level k: G = J and H = J M⁻¹ on a group's rows, one dot per S entry.
void BlockTridiagonalSolver::assembleHome(int k, int lane) {
  const BlockLayout& lay = *layout_;
  const int* outer = jac_->outerIndexPtr();
  const double* jv = jac_->valuePtr();
  double* G = g_[lane].data();  // per-lane scratch, small enough to stay in L1
  const double* r = r_->data();
  double* w = w_.data();
  double* H = h_[lane].data();
  for (int gi = lay.homeStart[size_t(k)]; gi < lay.homeStart[size_t(k) + 1]; ++gi) {
    const BlockLayout::Group& grp = lay.groups[size_t(lay.homeGroups[size_t(gi)])];
    const BlockLayout::Shape& shape = lay.shapes[size_t(grp.shape)];
    const int* slot = lay.slots.data() + shape.slotBegin;  // G and H are all zero here (see the end of the loop)
    const std::uint8_t* slotRow = lay.slotRows.data() + shape.slotBegin;
    const int* place = lay.groupRows.data() + grp.rowBegin;  // the group's rows in w
    for (int cl = grp.colBegin; cl < grp.colEnd; ++cl) {
      const int c = lay.groupCols[size_t(cl)];
      const double s = r[c] * invM_[c];
      for (int p = outer[c]; p < outer[c + 1]; ++p, ++slot, ++slotRow) {
        G[*slot] = jv[p];
        H[*slot] = jv[p] * invM_[c];
        w[place[*slotRow]] -= jv[p] * s;  // w = t − J M⁻¹ r, the same terms as a pass over J by columns
      }
    }
    double* store = store_.data() + grp.base;
    const BlockLayout::Pair* pr = lay.pairs.data() + shape.pairBegin;
    for (int k = 0; k < shape.runs; ++k) {  // a fixed dot length per run lets the compiler unroll it
      const int len = shape.runLength[k];
      const BlockLayout::Pair* end = pr + shape.perLength[len - 1];
      switch (len) {
        case 1: scatterPairs<1>(pr, end, G, H, store); break;
        case 2: scatterPairs<2>(pr, end, G, H, store); break;
        case 3: scatterPairs<3>(pr, end, G, H, store); break;
        case 4: scatterPairs<4>(pr, end, G, H, store); break;
        case 5: scatterPairs<5>(pr, end, G, H, store); break;
        case 6: scatterPairs<6>(pr, end, G, H, store); break;
        case 7: scatterPairs<7>(pr, end, G, H, store); break;
        default: scatterPairs<8>(pr, end, G, H, store); break;
      }
      pr = end;
    }
    // Back to all zeros for the next group (its dots read the structural zeros inside their spans): the few
    // slots written cost less than clearing the whole block.
    for (const int* z = lay.slots.data() + shape.slotBegin; z != slot; ++z) G[*z] = H[*z] = 0.0;
  }
}

void BlockTridiagonalSolver::factorMiddle() {
  const BlockLayout& lay = *layout_;
  if (lay.levels.empty()) return;
  const BlockLevel& mid = lay.levels[size_t(lay.middle)];
  double* A = store_.data() + mid.diagOff;
  const double* extra = store_.data() + lay.extraOff;
  for (int e = 0; e < packedSize(mid.width); ++e) A[e] += extra[e];
  for (int p = mid.start; p < mid.start + mid.width; ++p) {
    double& e = store_[size_t(lay.diagEntry[size_t(p)])];
    e += (*dDiag_)[lay.rowAt[size_t(p)]];
    diag0_[size_t(p)] = e;
  }
  for (int lane = 0; lane < 2; ++lane) {  // the two deferred updates, upper chain first
    if (lay.chain[lane].empty()) continue;
    const BlockLevel& lv = lay.levels[size_t(lay.chain[lane].back())];
    if (lv.recvRows > 0 && lv.width > lv.sendCol)
      subtractGram(A + packedIndex(mid.width, lv.recvRow, lv.recvRow), mid.width - lv.recvRow, store_.data() + lv.coupOff, lv.recvRows,
                   lv.width - lv.sendCol);  // once per factor: no fixed size needed
  }
  choleskyLevel(lay.middle);
}

// In-place Cholesky of level k's diagonal block (blockkernel::choleskyPacked).
void BlockTridiagonalSolver::choleskyLevel(int k) {
  const BlockLevel& lv = layout_->levels[size_t(k)];
  int failed = -1;
  withSize(lv.width, [&](auto w) { failed = choleskyPacked(store_.data() + lv.diagOff, w, diag0_.data() + lv.start); });
  if (failed >= 0)
    throw SingularSystem("singular SPOOK system (block): pivot of level " + std::to_string(k) +
                         " cancelled to below 1e-13 of its diagonal; redundant constraints need epsilon > 0");
}

void BlockTridiagonalSolver::solveFactored(const Eigen::VectorXd& r, const Eigen::VectorXd& t, Eigen::VectorXd& x,
                                           Eigen::VectorXd& y) {
  const SparseMatrixD& J = *jac_;
  const int* outer = J.outerIndexPtr();
  const double* jv = J.valuePtr();
  const int* inner = J.innerIndexPtr();
  const std::vector<int>& position = layout_->position;
  factorDeferred(r, t);  // also w = L⁻¹(t − J M⁻¹ r) in level order
  y.resize(m_);
  solveMiddle();
  twoLanes(&BlockTridiagonalSolver::backwardLane, false);
  for (long i = 0; i < m_; ++i) y[i] = w_[position[size_t(i)]];
  // x = M⁻¹(r + Jᵀ y) and, while the column is in cache, its share of solve()'s residual check.
  x.resize(n_);
  residualStart(t, y);
  for (long c = 0; c < n_; ++c) {
    double s = r[c], sAbs = std::abs(r[c]);
    for (int p = outer[c]; p < outer[c + 1]; ++p) {
      const double vy = jv[p] * y[inner[p]];
      s += vy;
      sAbs += std::abs(vy);
    }
    x[c] = s * invM_[c];
    residualColumn(c, x[c], s, sAbs, r[c], inner + outer[c], jv + outer[c], outer[c + 1] - outer[c]);
  }
}

void BlockTridiagonalSolver::forwardLevel(const BlockLevel& lv) {
  withSize(lv.width, [&](auto w) { forwardSubstitute(store_.data() + lv.diagOff, w, w_.data() + lv.start); });
  if (lv.next != layout_->middle) sendForward(lv);
}

// w_next −= C_k z_k on the coupling corner.
void BlockTridiagonalSolver::sendForward(const BlockLevel& lv) {
  const double* C = store_.data() + lv.coupOff;
  double* wn = w_.data() + layout_->levels[size_t(lv.next)].start + lv.recvRow;
  const double* z = w_.data() + lv.start + lv.sendCol;
  withSize(lv.recvRows, [&](auto r) {
    onLocalCopy(wn, r, [&](double* acc) {
      for (int j = 0; j < lv.width - lv.sendCol; ++j)
        for (int a = 0; a < r; ++a) acc[a] -= C[a + j * r] * z[j];
    });
  });
}

void BlockTridiagonalSolver::solveMiddle() {
  const BlockLayout& lay = *layout_;
  if (lay.levels.empty()) return;
  const BlockLevel& mid = lay.levels[size_t(lay.middle)];
  for (int lane = 0; lane < 2; ++lane)  // the deferred updates, upper chain first
    if (!lay.chain[lane].empty()) sendForward(lay.levels[size_t(lay.chain[lane].back())]);
  forwardSubstitute(store_.data() + mid.diagOff, mid.width, w_.data() + mid.start);
  backSubstitute(store_.data() + mid.diagOff, mid.width, w_.data() + mid.start);
}

void BlockTridiagonalSolver::backwardLane(int lane) {  // Lᵀ y = z back along the chain
  const BlockLayout& lay = *layout_;
  const std::vector<int>& chain = lay.chain[lane];
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const BlockLevel& lv = lay.levels[size_t(*it)];
    const BlockLevel& nx = lay.levels[size_t(lv.next)];
    withSize(lv.recvRows, [&](auto r) {
      subtractTransposedProduct(store_.data() + lv.coupOff, r, lv.width - lv.sendCol, w_.data() + nx.start + lv.recvRow,
                                w_.data() + lv.start + lv.sendCol);
    });
    withSize(lv.width, [&](auto w) { backSubstitute(store_.data() + lv.diagOff, w, w_.data() + lv.start); });
  }
}

}  // namespace varsim
