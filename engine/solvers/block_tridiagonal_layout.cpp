// Symbolic analysis of the block solver (see block_tridiagonal_layout.h).
#include "engine/solvers/block_tridiagonal_layout.h"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

namespace varsim {

namespace {
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

bool touches(const std::vector<int>& adjacent, const std::vector<int>& levelOfRow, int level) {
  return level >= 0 && std::any_of(adjacent.begin(), adjacent.end(), [&](int s) { return levelOfRow[size_t(s)] == level; });
}

long pairCount(size_t n) { return long(n * (n + 1) / 2); }
}  // namespace

BlockLayout::BlockLayout(const SparseMatrixD& J) {
  const long m = J.rows(), n = J.cols();
  // Row adjacency: rows sharing a column (J is column-major).
  std::vector<std::vector<int>> adj(static_cast<size_t>(m));
  for (long c = 0; c < n; ++c)
    for (int p = J.outerIndexPtr()[c]; p < J.outerIndexPtr()[c + 1]; ++p)
      for (int q = J.outerIndexPtr()[c]; q < J.outerIndexPtr()[c + 1]; ++q)
        if (p != q) adj[size_t(J.innerIndexPtr()[p])].push_back(J.innerIndexPtr()[q]);
  for (auto& a : adj) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  // Levels of each connected part from a pseudo-peripheral row (the last row reached from its first).
  std::vector<int> level(size_t(m), -1), queue;
  int base = 0;
  for (int seed = 0; seed < m; ++seed) {
    if (level[size_t(seed)] >= 0) continue;
    const size_t mark = queue.size();
    const int far = bfs(seed, adj, level, queue, base);
    for (size_t k = mark; k < queue.size(); ++k) level[size_t(queue[k])] = -1;
    queue.resize(mark);
    bfs(far, adj, level, queue, base);
    for (size_t k = mark; k < queue.size(); ++k) base = std::max(base, level[size_t(queue[k])] + 1);
  }
  std::stable_sort(queue.begin(), queue.end(), [&](int a, int b) { return level[size_t(a)] < level[size_t(b)]; });
  levels.assign(size_t(base), BlockLevel{});
  for (int r : queue) ++levels[size_t(level[size_t(r)])].width;
  orderRows(J, adj, queue, level);
  placeBlocks(adj);
  groupColumns(J);
}

// Middle level by cost (Σ w³ balanced between the chains), lanes, and the row order inside levels.
void BlockLayout::orderRows(const SparseMatrixD& J, const std::vector<std::vector<int>>& adj, const std::vector<int>& bfsOrder,
                            const std::vector<int>& levelOfRow) {
  const int L = levelCount();
  double total = 0, sum = 0;
  for (const BlockLevel& lv : levels) total += double(lv.width) * lv.width * lv.width;
  middle = L > 0 ? L - 1 : 0;
  for (int k = 0; k < L; ++k) {
    sum += double(levels[size_t(k)].width) * levels[size_t(k)].width * levels[size_t(k)].width;
    if (2 * sum >= total) {
      middle = k;
      break;
    }
  }
  int start = 0;
  for (int k = 0; k < L; ++k) {
    BlockLevel& lv = levels[size_t(k)];
    lv.start = start;
    start += lv.width;
    lv.lane = k < middle ? 0 : k > middle ? 1 : 2;
    lv.next = lv.lane == 0 ? k + 1 : lv.lane == 1 ? k - 1 : -1;
    maxWidth = std::max(maxWidth, lv.width);
  }
  for (int k = 0; k < middle; ++k) chain[0].push_back(k);
  for (int k = L - 1; k > middle; --k) chain[1].push_back(k);
  // Keys: rows coupled to the previous level of the chain first, to the next level last (middle level:
  // coupled to the upper chain first, to the lower chain after), BFS order within a key.
  auto key = [&](int row) {
    const int k = levelOfRow[size_t(row)];
    const BlockLevel& lv = levels[size_t(k)];
    const int prev = lv.lane == 0 ? k - 1 : lv.lane == 1 ? (k + 1 < L ? k + 1 : -1) : k - 1;
    const bool p = touches(adj[size_t(row)], levelOfRow, prev);
    const bool q = touches(adj[size_t(row)], levelOfRow, lv.lane == 2 ? k + 1 : lv.next);
    if (lv.lane == 2) return p && !q ? 0 : p && q ? 1 : q ? 2 : 3;
    return p && !q ? 0 : !p && !q ? 1 : p && q ? 2 : 3;
  };
  rowAt = bfsOrder;
  for (const BlockLevel& lv : levels)
    std::stable_sort(rowAt.begin() + lv.start, rowAt.begin() + lv.start + lv.width,
                     [&](int a, int b) { return key(a) < key(b); });
  position.assign(size_t(J.rows()), 0);
  levelOf_.assign(size_t(J.rows()), 0);
  for (size_t p = 0; p < rowAt.size(); ++p) {
    position[size_t(rowAt[p])] = int(p);
    levelOf_[p] = levelOfRow[size_t(rowAt[p])];
  }
}

// Coupling corners and the store layout: per level its diagonal block and its coupling block, then the
// lower chain's private copy of the middle diagonal block (so the two lanes never write the same entry).
void BlockLayout::placeBlocks(const std::vector<std::vector<int>>& adj) {
  int size = 0;
  for (int k = 0; k < levelCount(); ++k) {
    BlockLevel& lv = levels[size_t(k)];
    lv.diagOff = size;
    size += packedSize(lv.width);
    lv.sendCol = lv.width;
    if (lv.next < 0) continue;
    const BlockLevel& nx = levels[size_t(lv.next)];
    int lo = nx.width, hi = -1;
    for (int i = 0; i < lv.width; ++i) {
      const int row = rowAt[size_t(lv.start + i)];
      for (int s : adj[size_t(row)]) {
        const int ps = position[size_t(s)];
        if (levelOf_[size_t(ps)] != lv.next) continue;
        lv.sendCol = std::min(lv.sendCol, i);
        lo = std::min(lo, ps - nx.start);
        hi = std::max(hi, ps - nx.start);
      }
    }
    lv.recvRow = hi < 0 ? 0 : lo;
    lv.recvRows = hi < 0 ? 0 : hi - lo + 1;
    lv.coupOff = size;
    size += lv.recvRows * (lv.width - lv.sendCol);
  }
  extraOff = size;
  storeSize = size + (levels.empty() ? 0 : packedSize(levels[size_t(middle)].width));
  diagEntry.assign(rowAt.size(), 0);
  for (const BlockLevel& lv : levels)
    for (int i = 0; i < lv.width; ++i) diagEntry[size_t(lv.start + i)] = lv.diagOff + packedIndex(lv.width, i, i);
}

int BlockLayout::laneOfPosition(int p) const { return levels[size_t(levelOf_[size_t(p)])].lane; }

// Store index of S(pa, pb), pa ≥ pb, written by a group of `lane`.
int BlockLayout::target(int pa, int pb, int lane) const {
  const int la = levelOf_[size_t(pa)], lb = levelOf_[size_t(pb)];
  if (la == lb) {
    const BlockLevel& lv = levels[size_t(la)];
    const int off = la == middle && lane == 1 ? extraOff : lv.diagOff;
    return off + packedIndex(lv.width, pa - lv.start, pb - lv.start);
  }
  const bool upper = la <= middle;  // lb sends into la; else la sends into lb
  const BlockLevel& s = levels[size_t(upper ? lb : la)];
  const BlockLevel& r = levels[size_t(upper ? la : lb)];
  const int i = (upper ? pa : pb) - r.start - s.recvRow, j = (upper ? pb : pa) - s.start - s.sendCol;
  if (la != lb + 1 || i < 0 || i >= s.recvRows || j < 0) throw std::logic_error("block solver: S entry outside its blocks");
  return s.coupOff + i + j * s.recvRows;
}

// Per-body assembly: consecutive-ish columns join an open group when that does not raise the number of
// S entries to scatter (pairs(|U ∪ R|) ≤ pairs(|U|) + pairs(|R|)): a rod's coordinates share its joints.
void BlockLayout::groupColumns(const SparseMatrixD& J) {
  struct Open {
    std::vector<int> rows, cols;
  };
  std::vector<Open> built;
  const int* outer = J.outerIndexPtr();
  const int* inner = J.innerIndexPtr();
  std::vector<int> R, U;
  for (long c = 0; c < J.cols(); ++c) {
    R.clear();
    for (int p = outer[c]; p < outer[c + 1]; ++p) R.push_back(position[size_t(inner[p])]);
    if (R.empty()) continue;
    std::sort(R.begin(), R.end());
    bool placed = false;
    for (size_t g = built.size(); g-- > std::max<size_t>(built.size(), 8) - 8 && !placed;) {
      Open& o = built[g];
      U.clear();
      std::set_union(o.rows.begin(), o.rows.end(), R.begin(), R.end(), std::back_inserter(U));
      const bool span = levelOf_[size_t(U.back())] - levelOf_[size_t(U.front())] <= 1;
      if (span && U.size() <= 32 && o.cols.size() < 8 && pairCount(U.size()) <= pairCount(o.rows.size()) + pairCount(R.size())) {
        o.rows = U;
        o.cols.push_back(int(c));
        placed = true;
      }
    }
    if (!placed) built.push_back({R, {int(c)}});
  }
  // Lane and home level of a group; the groups are stored in the order the lanes consume them (upper chain
  // upwards, lower chain downwards), so each lane streams J forwards.
  auto laneOf = [&](const Open& o) {
    const int lo = levelOf_[size_t(o.rows.front())], hi = levelOf_[size_t(o.rows.back())];
    return hi < middle ? 0 : lo > middle ? 1 : (lo == middle && hi == middle + 1) ? 1 : 0;
  };
  auto orderKey = [&](const Open& o) {
    const int lo = levelOf_[size_t(o.rows.front())], hi = levelOf_[size_t(o.rows.back())];
    return laneOf(o) == 0 ? lo : 2 * levelCount() - hi;
  };
  std::stable_sort(built.begin(), built.end(), [&](const Open& a, const Open& b) { return orderKey(a) < orderKey(b); });
  extraRow = int(rowAt.size());
  std::map<std::vector<int>, int> known;  // a shape's key → its index
  for (const Open& o : built) {
    const int lane = laneOf(o);
    const int lo = levelOf_[size_t(o.rows.front())], hi = levelOf_[size_t(o.rows.back())];
    Group grp{lane, lane == 0 ? lo : hi, int(groupCols.size()), int(groupCols.size() + o.cols.size()), int(o.rows.size()), 0, 0,
              int(groupRows.size())};
    groupCols.insert(groupCols.end(), o.cols.begin(), o.cols.end());
    for (int p : o.rows)
      groupRows.push_back(lane == 1 && levelOf_[size_t(p)] == middle ? extraRow + p - levels[size_t(middle)].start : p);
    const std::vector<int> key = shapeKey(J, o.rows, o.cols, lane, grp.base);
    const auto found = known.find(key);
    grp.shape = found != known.end() ? found->second : known.emplace(key, addShape(key)).first->second;
    const Shape& shape = shapes[size_t(grp.shape)];
    for (int len = 0; len < 8; ++len) {
      structuralPairs += shape.perLength[len];
      dotLength += long(len + 1) * shape.perLength[len];
    }
    groups.push_back(grp);
    maxGroupBlock = std::max(maxGroupBlock, grp.rows * (grp.colEnd - grp.colBegin));
  }
  homeStart.assign(levels.size() + 1, 0);
  for (const Group& grp : groups) ++homeStart[size_t(grp.home) + 1];
  for (size_t k = 0; k < levels.size(); ++k) homeStart[k + 1] += homeStart[k];
  homeGroups.resize(groups.size());
  std::vector<int> fill(homeStart.begin(), homeStart.end() - 1);
  for (size_t i = 0; i < groups.size(); ++i) homeGroups[size_t(fill[size_t(groups[i].home)]++)] = int(i);
}

// A group's structure as a key: [cols, rows, nonzeros, their slots in G/H (column order), then per dot length
// 1…8 the count and the pairs (a, b, target − base)]. One pair per S entry (rows sharing a column), its dot
// over the span of the columns both rows use. `base` (the smallest target) makes alike groups equal.
std::vector<int> BlockLayout::shapeKey(const SparseMatrixD& J, const std::vector<int>& rows, const std::vector<int>& cols,
                                       int lane, int& base) const {
  const int g = int(cols.size()), u = int(rows.size());
  std::vector<int> key{g, u, 0};
  std::vector<char> used(size_t(u) * size_t(g), 0);  // structural nonzeros of the group's G block
  for (int cl = 0; cl < g; ++cl)
    for (int p = J.outerIndexPtr()[cols[size_t(cl)]]; p < J.outerIndexPtr()[cols[size_t(cl)] + 1]; ++p) {
      const int pos = position[size_t(J.innerIndexPtr()[p])];
      const int i = int(std::lower_bound(rows.begin(), rows.end(), pos) - rows.begin());
      key.push_back(i * g + cl);
      used[size_t(i * g + cl)] = 1;
      ++key[2];
    }
  std::vector<Pair> byLength[8];
  base = std::numeric_limits<int>::max();
  for (int i = 0; i < u; ++i)
    for (int j = 0; j <= i; ++j) {
      int first = g, last = -1;
      for (int cl = 0; cl < g; ++cl)
        if (used[size_t(i * g + cl)] && used[size_t(j * g + cl)]) first = std::min(first, cl), last = cl;
      if (last < 0) continue;
      const int t = target(rows[size_t(i)], rows[size_t(j)], lane);
      byLength[last - first].push_back({std::uint16_t(i * g + first), std::uint16_t(j * g + first), t});
      base = std::min(base, t);
    }
  for (const auto& run : byLength) {
    key.push_back(int(run.size()));
    for (const Pair& pr : run) key.insert(key.end(), {int(pr.a), int(pr.b), pr.target - base});
  }
  return key;
}

// Stores a new shape from its key (shapeKey's layout) and returns its index.
int BlockLayout::addShape(const std::vector<int>& key) {
  Shape shape{int(slots.size()), int(pairs.size()), {}, 0, {}};
  const size_t nonzeros = size_t(key[2]);
  slots.insert(slots.end(), key.begin() + 3, key.begin() + 3 + long(nonzeros));
  for (size_t k = 0; k < nonzeros; ++k) slotRows.push_back(std::uint8_t(key[3 + k] / key[0]));  // slot = row · cols + col
  size_t k = 3 + nonzeros;
  for (int len = 0; len < 8; ++len) {
    const int count = key[k++];
    shape.perLength[len] = std::uint16_t(count);
    if (count > 0) shape.runLength[shape.runs++] = std::uint8_t(len + 1);
    for (int q = 0; q < count; ++q, k += 3) pairs.push_back({std::uint16_t(key[k]), std::uint16_t(key[k + 1]), key[k + 2]});
  }
  shapes.push_back(shape);
  return int(shapes.size()) - 1;
}

}  // namespace varsim
