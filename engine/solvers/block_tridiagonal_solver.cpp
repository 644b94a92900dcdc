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

// store[target] += Σ_t J[a_t] H[b_t] for each pair of a run whose dots have Len terms (BlockLayout::Term);
// returns the terms after the run's.
template <int Len>
const BlockLayout::Term* scatterPairs(const int* target, const int* end, const BlockLayout::Term* term, const double* J,
                                      const double* H, double* store) {
  for (; target != end; ++target, term += Len) {
    double s = J[term[0].a] * H[term[0].b];
    for (int t = 1; t < Len; ++t) s += J[term[t].a] * H[term[t].b];
    store[*target] += s;
  }
  return term;
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

void BlockTridiagonalSolver::twoLanes(Phase phase) {
  if (threads_ < 2) {
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

void BlockTridiagonalSolver::factor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag,
                                    long patternId, const Eigen::VectorXd* massShift) {
  const bool samePattern = beginFactor(massDiag, J, dDiag, patternId, massShift);
  if (!samePattern || !layout_) {
    const auto start = SteadyClock::now();
    layout_ = std::make_unique<BlockLayout>(J);
    n_ = J.cols();
    m_ = J.rows();
    store_.assign(size_t(layout_->storeSize), 0.0);
    for (int lane = 0; lane < 2; ++lane) {
      im_[lane].assign(size_t(layout_->maxHomeCols), 0.0);
      rim_[lane].assign(size_t(layout_->maxHomeCols), 0.0);
      h_[lane].assign(size_t(layout_->maxHomeEntries), 0.0);
      diag0_[lane].assign(size_t(layout_->maxWidth), 0.0);
    }
    w_.resize(m_ + (layout_->levels.empty() ? 0 : layout_->levels[size_t(layout_->middle)].width));
    stats_.analyseUs = microsecondsSince(start);
    ++stats_.analyses;
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
  for (size_t i = 0; i < chain.size(); ++i) {
    const int k = chain[i];
    const BlockLevel& lv = lay.levels[size_t(k)];
    if (i + kPrefetchLevels < chain.size() && prefetchStore()) prefetchLevel(lay.levels[size_t(chain[i + kPrefetchLevels])], true);
    if (lane == 0 || lv.next != lay.middle) zeroLevel(lay.levels[size_t(lv.next)]);  // the middle block is lane 0's
    assembleHome(k, lane);
    addD(lv, lane);
    choleskyLevel(k, lane);
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
static int levelBlockSize(const BlockLevel& lv) {
  return packedSize(lv.width) + (lv.next < 0 ? 0 : lv.recvRows * (lv.width - lv.sendCol));
}
void BlockTridiagonalSolver::zeroLevel(const BlockLevel& lv) { zeroLevel(lv.diagOff, levelBlockSize(lv)); }
void BlockTridiagonalSolver::zeroLevel(int offset, int count) { std::fill_n(store_.data() + offset, count, 0.0); }

// Asks for a level's blocks a few levels before the sweep reaches them (factorLane: to write, backwardLane: to
// read). Once the store outgrows the caches every level is a cold miss, and its lines are written (the zero fill)
// or read back-to-back by short kernels that leave the miss latency exposed; the hardware prefetchers follow the
// other streams (J, M⁻¹, r, w: bench_ladder --step A/B, prefetching them too cost +4 %). Prefetches change no value.
void BlockTridiagonalSolver::prefetchLevel(const BlockLevel& lv, bool forWrite) const {
  const char* line = reinterpret_cast<const char*>(store_.data() + lv.diagOff);
  const char* end = reinterpret_cast<const char*>(store_.data() + lv.diagOff + levelBlockSize(lv));
  for (; line < end; line += 64)
    if (forWrite) __builtin_prefetch(line, 1, 3);
    else __builtin_prefetch(line, 0, 3);
}

// S += J M⁻¹ Jᵀ of the groups whose home is level k, one dot per S entry and group of J's values in place and
// H = J M⁻¹ on the home's nonzeros (lane scratch), and w −= J M⁻¹ r on their rows (the same terms as a pass over J
// by columns). Three loops of a trip count fixed per home shape, so their branches are predicted.
void BlockTridiagonalSolver::assembleHome(int k, int lane) {
  const BlockLayout& lay = *layout_;
  const BlockLayout::Home& home = lay.homes[size_t(k)];
  const BlockLayout::HomeShape& shape = lay.homeShapes[size_t(home.shape)];
  const double* __restrict J = factoredJ().valuePtr() + home.valueBase;
  const double* invM = inverseMass().data() + home.colBase;
  const double* r = r_->data() + home.colBase;
  double* __restrict im = im_[lane].data();
  double* __restrict rim = rim_[lane].data();
  double* __restrict H = h_[lane].data();
  const int* col = lay.homeCols.data() + shape.colBegin;
  for (int j = 0; j < shape.cols; ++j) {
    im[j] = invM[col[j]];
    rim[j] = r[col[j]] * im[j];
  }
  double* __restrict w = w_.data() + home.rowBase;
  const BlockLayout::Entry* entry = lay.entries.data() + shape.entryBegin;
  for (int e = 0; e < shape.entries; ++e) {
    const double v = J[entry[e].value];
    H[e] = v * im[entry[e].col];
    w[entry[e].row] -= v * rim[entry[e].col];
  }
  double* store = store_.data() + home.base;
  const int* target = lay.pairTargets.data() + shape.pairBegin;
  const BlockLayout::Term* term = lay.terms.data() + shape.termBegin;
  for (const BlockLayout::Run* run = lay.runs.data() + shape.runBegin, *end = run + shape.runs; run != end; ++run) {
    const int* stop = target + run->pairs;
    switch (run->terms) {  // a fixed term count per run lets the compiler unroll the dot
      case 1: term = scatterPairs<1>(target, stop, term, J, H, store); break;
      case 2: term = scatterPairs<2>(target, stop, term, J, H, store); break;
      case 3: term = scatterPairs<3>(target, stop, term, J, H, store); break;
      case 4: term = scatterPairs<4>(target, stop, term, J, H, store); break;
      case 5: term = scatterPairs<5>(target, stop, term, J, H, store); break;
      case 6: term = scatterPairs<6>(target, stop, term, J, H, store); break;
      case 7: term = scatterPairs<7>(target, stop, term, J, H, store); break;
      default: term = scatterPairs<8>(target, stop, term, J, H, store); break;
    }
    target = stop;
  }
}

void BlockTridiagonalSolver::factorMiddle() {
  const BlockLayout& lay = *layout_;
  if (lay.levels.empty()) return;
  const BlockLevel& mid = lay.levels[size_t(lay.middle)];
  double* A = store_.data() + mid.diagOff;
  const double* extra = store_.data() + lay.extraOff;
  for (int e = 0; e < packedSize(mid.width); ++e) A[e] += extra[e];
  addD(mid, 0);
  for (int lane = 0; lane < 2; ++lane) {  // the two deferred updates, upper chain first
    if (lay.chain[lane].empty()) continue;
    const BlockLevel& lv = lay.levels[size_t(lay.chain[lane].back())];
    if (lv.recvRows > 0 && lv.width > lv.sendCol)
      subtractGram(A + packedIndex(mid.width, lv.recvRow, lv.recvRow), mid.width - lv.recvRow, store_.data() + lv.coupOff, lv.recvRows,
                   lv.width - lv.sendCol);  // once per factor: no fixed size needed
  }
  choleskyLevel(lay.middle, 0);
}

// S_kk += D_k, and its diagonal kept for the pivot check.
void BlockTridiagonalSolver::addD(const BlockLevel& lv, int lane) {
  const int* rowAt = layout_->rowAt.data() + lv.start;
  const Eigen::VectorXd& D = factoredD();
  double* diag0 = diag0_[lane].data();
  for (int i = 0; i < lv.width; ++i) {
    double& e = store_[size_t(lv.diagOff + packedIndex(lv.width, i, i))];
    e += D[rowAt[i]];
    diag0[i] = e;
  }
}

// In-place Cholesky of level k's diagonal block (blockkernel::choleskyPacked).
void BlockTridiagonalSolver::choleskyLevel(int k, int lane) {
  const BlockLevel& lv = layout_->levels[size_t(k)];
  int failed = -1;
  withSize(lv.width, [&](auto w) { failed = choleskyPacked(store_.data() + lv.diagOff, w, diag0_[lane].data()); });
  if (failed >= 0)
    throw SingularSystem("singular SPOOK system (block): pivot of level " + std::to_string(k) +
                         " cancelled to below 1e-13 of its diagonal; redundant constraints need epsilon > 0");
}

void BlockTridiagonalSolver::solveFactored(const Eigen::VectorXd& r, const Eigen::VectorXd& t, Eigen::VectorXd& x,
                                           Eigen::VectorXd& y) {
  const SparseMatrixD& J = factoredJ();
  const int* outer = J.outerIndexPtr();
  const double* jv = J.valuePtr();
  const double* invM = inverseMass().data();
  const int* inner = J.innerIndexPtr();
  const std::vector<int>& position = layout_->position;
  factorDeferred(r, t);  // also w = L⁻¹(t − J M⁻¹ r) in level order
  y.resize(m_);
  solveMiddle();
  // One lane after the other on any thread count (the helper is woken once per step, for the factor), lane 1 first:
  // it was factored last, so its levels next to the middle are still cached. The lanes write disjoint entries.
  backwardLane(1);
  backwardLane(0);
  for (long i = 0; i < m_; ++i) y[i] = w_[position[size_t(i)]];
  // x = M⁻¹(r + Jᵀ y) and, while the column is in cache, its share of solve()'s residual check.
  x.resize(n_);
  // The factor store is dead after the backward pass (the next factorisation zeroes each block before use): the
  // residual check's two row vectors live there (≥ 2m doubles unless a level is under 3 rows wide).
  residualStart(t, y, store_.size() >= size_t(2 * m_) ? store_.data() : nullptr);
  for (long c = 0; c < n_; ++c) {
    double s = r[c], sAbs = std::abs(r[c]);
    for (int p = outer[c]; p < outer[c + 1]; ++p) {
      const double vy = jv[p] * y[inner[p]];
      s += vy;
      sAbs += std::abs(vy);
    }
    x[c] = s * invM[c];
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
    if (chain.rend() - it > kPrefetchLevels && prefetchStore()) prefetchLevel(lay.levels[size_t(*(it + kPrefetchLevels))], false);
    const BlockLevel& nx = lay.levels[size_t(lv.next)];
    withSize(lv.recvRows, [&](auto r) {
      subtractTransposedProduct(store_.data() + lv.coupOff, r, lv.width - lv.sendCol, w_.data() + nx.start + lv.recvRow,
                                w_.data() + lv.start + lv.sendCol);
    });
    withSize(lv.width, [&](auto w) { backSubstitute(store_.data() + lv.diagOff, w, w_.data() + lv.start); });
  }
}

}  // namespace varsim
