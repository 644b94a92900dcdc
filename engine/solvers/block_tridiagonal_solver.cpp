// Block-tridiagonal Schur-complement solve (see block_tridiagonal_solver.h).
#include "engine/solvers/block_tridiagonal_solver.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <string>

namespace varsim {

namespace {
using MapM = Eigen::Map<Eigen::MatrixXd>;
using MapV = Eigen::Map<Eigen::VectorXd>;

// Breadth-first levels from `start` over rows not yet levelled (level[] = −1); returns the last row.
int bfs(int start, const std::vector<std::vector<int>>& adj, std::vector<int>& level, std::vector<int>& queue, int base) {
  size_t head = queue.size();
  queue.push_back(start);
  level[size_t(start)] = base;
  int last = start;
  while (head < queue.size()) {
    const int r = queue[head++];
    last = r;
    for (int s : adj[size_t(r)])
      if (level[size_t(s)] < 0) level[size_t(s)] = level[size_t(r)] + 1, queue.push_back(s);
  }
  return last;
}
}  // namespace

void BlockTridiagonalSolver::orderLevels(const SparseMatrixD& J) {
  // Row adjacency: rows sharing a column (J is column-major).
  std::vector<std::vector<int>> adj(static_cast<size_t>(m_));
  for (long c = 0; c < n_; ++c)
    for (int p = J.outerIndexPtr()[c]; p < J.outerIndexPtr()[c + 1]; ++p)
      for (int q = J.outerIndexPtr()[c]; q < J.outerIndexPtr()[c + 1]; ++q)
        if (p != q) adj[size_t(J.innerIndexPtr()[p])].push_back(J.innerIndexPtr()[q]);
  for (auto& a : adj) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  std::vector<int> level(size_t(m_), -1), queue;
  int base = 0;
  for (int seed = 0; seed < m_; ++seed) {
    if (level[size_t(seed)] >= 0) continue;
    // Pseudo-peripheral start: the last row reached from `seed` (then levels from there).
    const size_t mark = queue.size();
    const int far = bfs(seed, adj, level, queue, base);
    for (size_t k = mark; k < queue.size(); ++k) level[size_t(queue[k])] = -1;
    queue.resize(mark);
    bfs(far, adj, level, queue, base);
    for (size_t k = mark; k < queue.size(); ++k) base = std::max(base, level[size_t(queue[k])] + 1);
  }
  // Stable order by level (BFS order within a level).
  std::stable_sort(queue.begin(), queue.end(), [&](int a, int b) { return level[size_t(a)] < level[size_t(b)]; });
  position_.assign(size_t(m_), 0);
  levelStart_.assign(size_t(base) + 1, 0);
  for (size_t k = 0; k < queue.size(); ++k) {
    position_[size_t(queue[k])] = int(k);
    ++levelStart_[size_t(level[size_t(queue[k])]) + 1];
  }
  for (int k = 0; k < base; ++k) levelStart_[size_t(k) + 1] += levelStart_[size_t(k)];
}

void BlockTridiagonalSolver::analyse(const SparseMatrixD& J) {
  const auto start = SteadyClock::now();
  n_ = J.cols();
  m_ = J.rows();
  orderLevels(J);
  const int L = levels();
  std::vector<int> levelOf(static_cast<size_t>(m_));
  for (int k = 0; k < L; ++k)
    for (int p = levelStart_[size_t(k)]; p < levelStart_[size_t(k) + 1]; ++p) levelOf[size_t(p)] = k;
  diagOff_.assign(size_t(L), 0);
  subOff_.assign(size_t(std::max(L - 1, 0)), 0);
  int size = 0;
  maxWidth_ = 0;
  for (int k = 0; k < L; ++k) {
    maxWidth_ = std::max(maxWidth_, width(k));
    diagOff_[size_t(k)] = size;
    size += width(k) * width(k);
    if (k + 1 < L) subOff_[size_t(k)] = size, size += width(k + 1) * width(k);
  }
  store_.assign(size_t(size), 0.0);
  diagEntry_.assign(size_t(m_), 0);
  for (long p = 0; p < m_; ++p) {
    const int k = levelOf[size_t(p)], i = int(p) - levelStart_[size_t(k)];
    diagEntry_[size_t(p)] = diagOff_[size_t(k)] + i + i * width(k);
  }
  // Every product J_ac J_bc / M_c lands in the lower triangle of a diagonal block or in a sub-block.
  products_.clear();
  for (long c = 0; c < n_; ++c)
    for (int e1 = J.outerIndexPtr()[c]; e1 < J.outerIndexPtr()[c + 1]; ++e1)
      for (int e2 = e1; e2 < J.outerIndexPtr()[c + 1]; ++e2) {
        int a = position_[size_t(J.innerIndexPtr()[e1])], b = position_[size_t(J.innerIndexPtr()[e2])];
        if (a < b) std::swap(a, b);  // a ≥ b: lower triangle, or the later level
        const int la = levelOf[size_t(a)], lb = levelOf[size_t(b)];
        const int i = a - levelStart_[size_t(la)], j = b - levelStart_[size_t(lb)];
        const int target = la == lb ? diagOff_[size_t(la)] + i + j * width(la) : subOff_[size_t(lb)] + i + j * width(la);
        products_.push_back({target, e1, e2, int(c)});
      }
  std::sort(products_.begin(), products_.end(), [](const Product& x, const Product& y) { return x.target < y.target; });
  diag0_.assign(size_t(m_), 0.0);
  invM_.resize(n_);
  w_.resize(m_);
  stats_.analyseUs = microsecondsSince(start);
  ++stats_.analyses;
}

void BlockTridiagonalSolver::factor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag) {
  if (!beginFactor(massDiag, J, dDiag)) analyse(J);
  jac_ = &J;
  const auto start = SteadyClock::now();
  invM_ = massDiag.cwiseInverse();
  std::fill(store_.begin(), store_.end(), 0.0);
  const double* jv = J.valuePtr();
  for (const Product& pr : products_) store_[size_t(pr.target)] += jv[pr.p] * jv[pr.q] * invM_[pr.column];
  for (long i = 0; i < m_; ++i) {
    const size_t e = size_t(diagEntry_[size_t(position_[size_t(i)])]);
    store_[e] += dDiag[i];
    diag0_[size_t(position_[size_t(i)])] = store_[e];
  }
  // S = L Lᵀ by levels: L_k L_kᵀ = S_kk − C_k C_kᵀ, C_{k+1} = S_{k+1,k} L_k⁻ᵀ (in place over S's blocks).
  const int levelCount = levels();
  for (int k = 0; k < levelCount; ++k) {
    const int b = width(k);
    MapM A(store_.data() + diagOff_[size_t(k)], b, b);
    if (k > 0) A.selfadjointView<Eigen::Lower>().rankUpdate(MapM(store_.data() + subOff_[size_t(k) - 1], b, width(k - 1)), -1.0);
    Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(A);
    for (int i = 0; i < b; ++i) {
      const double pivot = A(i, i) * A(i, i), scale = diag0_[size_t(levelStart_[size_t(k)] + i)];
      if (llt.info() != Eigen::Success || !(pivot > 1e-13 * scale))
        throw SingularSystem("singular SPOOK system (block): pivot of level " + std::to_string(k) +
                             " cancelled to below 1e-13 of its diagonal; redundant constraints need epsilon > 0");
    }
    if (k + 1 < levelCount) {
      MapM B(store_.data() + subOff_[size_t(k)], width(k + 1), b);
      A.transpose().triangularView<Eigen::Upper>().solveInPlace<Eigen::OnTheRight>(B);
    }
  }
  stats_.factorUs = microsecondsSince(start);
  ++stats_.factorizations;
  stats_.matrixNnz = long(store_.size());
  stats_.factorNnz = long(store_.size());
}

void BlockTridiagonalSolver::solveFactored(const Eigen::VectorXd& r, const Eigen::VectorXd& t, Eigen::VectorXd& x,
                                           Eigen::VectorXd& y) {
  const SparseMatrixD& J = *jac_;
  const int* outer = J.outerIndexPtr();
  const int* inner = J.innerIndexPtr();
  const double* jv = J.valuePtr();
  // w = t − J M⁻¹ r, in level order.
  for (long i = 0; i < m_; ++i) w_[position_[size_t(i)]] = t[i];
  for (long c = 0; c < n_; ++c) {
    const double s = r[c] * invM_[c];
    for (int p = outer[c]; p < outer[c + 1]; ++p) w_[position_[size_t(inner[p])]] -= jv[p] * s;
  }
  const int levelCount = levels();
  auto seg = [&](int k) { return MapV(w_.data() + levelStart_[size_t(k)], width(k)); };
  for (int k = 0; k < levelCount; ++k) {  // L z = w
    MapV wk = seg(k);
    if (k > 0) wk.noalias() -= MapM(store_.data() + subOff_[size_t(k) - 1], width(k), width(k - 1)) * seg(k - 1);
    MapM(store_.data() + diagOff_[size_t(k)], width(k), width(k)).triangularView<Eigen::Lower>().solveInPlace(wk);
  }
  for (int k = levelCount - 1; k >= 0; --k) {  // Lᵀ y = z
    MapV wk = seg(k);
    if (k + 1 < levelCount)
      wk.noalias() -= MapM(store_.data() + subOff_[size_t(k)], width(k + 1), width(k)).transpose() * seg(k + 1);
    MapM(store_.data() + diagOff_[size_t(k)], width(k), width(k)).transpose().triangularView<Eigen::Upper>().solveInPlace(wk);
  }
  y.resize(m_);
  for (long i = 0; i < m_; ++i) y[i] = w_[position_[size_t(i)]];
  x.resize(n_);
  for (long c = 0; c < n_; ++c) {
    double s = r[c];
    for (int p = outer[c]; p < outer[c + 1]; ++p) s += jv[p] * y[inner[p]];
    x[c] = s * invM_[c];
  }
}

}  // namespace varsim
