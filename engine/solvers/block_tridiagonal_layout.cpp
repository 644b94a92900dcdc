// Symbolic analysis of the block solver (see block_tridiagonal_layout.h).
#include "engine/solvers/block_tridiagonal_layout.h"

#include <algorithm>
#include <iterator>
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
  std::vector<int>().swap(levelOf_);  // analysis only: the solve keeps no per-row table it does not read
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
}

int BlockLayout::laneOfPosition(int p) const {  // levels are in position order
  const auto after =
      std::upper_bound(levels.begin(), levels.end(), p, [](int q, const BlockLevel& lv) { return q < lv.start; });
  return std::prev(after)->lane;
}

long BlockLayout::bytes() const {
  auto of = [](const auto& v) { return long(v.capacity() * sizeof(v[0])); };
  return of(position) + of(rowAt) + of(levels) + of(chain[0]) + of(chain[1]) + of(homes) + of(homeShapes) +
         of(homeCols) + of(entries) + of(runs) + of(pairTargets) + of(terms) + of(levelOf_);
}

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
// The groups of each home level then become its Home and HomeShape.
void BlockLayout::groupColumns(const SparseMatrixD& J) {
  std::vector<Group> built;
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
      Group& o = built[g];
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
  // Lane and home level of a group (the lanes consume their levels upwards and downwards).
  auto laneOf = [&](const Group& o) {
    const int lo = levelOf_[size_t(o.rows.front())], hi = levelOf_[size_t(o.rows.back())];
    return hi < middle ? 0 : lo > middle ? 1 : (lo == middle && hi == middle + 1) ? 1 : 0;
  };
  std::vector<std::vector<const Group*>> members(levels.size());  // per home, in J's column order
  for (const Group& o : built) {
    const bool lower = laneOf(o) == 1;
    members[size_t(levelOf_[size_t(lower ? o.rows.back() : o.rows.front())])].push_back(&o);
  }
  extraRow = int(rowAt.size());
  groupCount = long(built.size());
  std::map<std::vector<int>, int> known;  // a home shape's key → its index
  for (int k = 0; k < levelCount(); ++k) {
    Home home{};
    const std::vector<int> key = homeKey(J, members[size_t(k)], levels[size_t(k)].lane == 1 ? 1 : 0, k, home);
    const auto found = known.find(key);
    home.shape = found != known.end() ? found->second : known.emplace(key, addShape(key)).first->second;
    homes.push_back(home);
    const HomeShape& shape = homeShapes[size_t(home.shape)];
    for (int r = shape.runBegin; r < shape.runBegin + shape.runs; ++r) {
      structuralPairs += runs[size_t(r)].pairs;
      dotLength += long(runs[size_t(r)].pairs) * runs[size_t(r)].terms;
    }
  }
}

// A home's structure as a key: [columns, their offsets from colBase; entries, (value, row, col) each; runs,
// (pairs, terms) each; per dot (target − base, its terms (a, b))]. Alike homes have equal keys.
std::vector<int> BlockLayout::homeKey(const SparseMatrixD& J, const std::vector<const Group*>& members, int lane, int k,
                                      Home& home) const {
  const int* outer = J.outerIndexPtr();
  home.rowBase = levels[size_t(k)].start;
  home.colBase = members.empty() ? 0 : members.front()->cols.front();
  for (const Group* o : members) home.colBase = std::min(home.colBase, o->cols.front());
  home.valueBase = outer[home.colBase];
  std::vector<int> cols, entryKey, termData, value, entry;
  struct Dot {
    int target, phase, termBegin, terms;  // terms: termData[termBegin …) pairs (a, b)
  };
  std::vector<Dot> dots;
  for (const Group* o : members) {
    const int g = int(o->cols.size()), u = int(o->rows.size()), col0 = int(cols.size());
    value.assign(size_t(u) * size_t(g), -1);  // (row, column) → value offset and entry; −1: structural zero
    entry.assign(size_t(u) * size_t(g), -1);
    for (int cl = 0; cl < g; ++cl) {
      const int c = o->cols[size_t(cl)];
      cols.push_back(c - home.colBase);
      for (int p = outer[c]; p < outer[c + 1]; ++p) {
        const int pos = position[size_t(J.innerIndexPtr()[p])];
        const int i = int(std::lower_bound(o->rows.begin(), o->rows.end(), pos) - o->rows.begin());
        const bool extra = lane == 1 && levelOf_[size_t(pos)] == middle;
        const int row = extra ? extraRow + pos - levels[size_t(middle)].start : pos;
        value[size_t(i * g + cl)] = p - home.valueBase;
        entry[size_t(i * g + cl)] = int(entryKey.size()) / 3;
        entryKey.insert(entryKey.end(), {p - home.valueBase, row - home.rowBase, col0 + cl});
      }
    }
    for (int i = 0; i < u; ++i)
      for (int j = 0; j <= i; ++j) {
        Dot dot{target(o->rows[size_t(i)], o->rows[size_t(j)], lane), 0, int(termData.size()), 0};
        for (int cl = 0; cl < g; ++cl)
          if (value[size_t(i * g + cl)] >= 0 && value[size_t(j * g + cl)] >= 0) {
            termData.insert(termData.end(), {value[size_t(i * g + cl)], entry[size_t(j * g + cl)]});
            ++dot.terms;
          }
        if (dot.terms > 0) dots.push_back(dot);
      }
  }
  // Phase: the number of earlier dots into the same target (a stable sort by target numbers them in order).
  std::vector<int> byTarget(dots.size());
  for (size_t d = 0; d < dots.size(); ++d) byTarget[d] = int(d);
  std::stable_sort(byTarget.begin(), byTarget.end(),
                   [&](int a, int b) { return dots[size_t(a)].target < dots[size_t(b)].target; });
  for (size_t q = 1; q < byTarget.size(); ++q) {
    const Dot& before = dots[size_t(byTarget[q - 1])];
    Dot& dot = dots[size_t(byTarget[q])];
    if (dot.target == before.target) dot.phase = before.phase + 1;
  }
  std::stable_sort(dots.begin(), dots.end(), [](const Dot& a, const Dot& b) {
    return a.phase != b.phase ? a.phase < b.phase : a.terms < b.terms;
  });
  home.base = 0;
  for (size_t d = 0; d < dots.size(); ++d) home.base = d == 0 ? dots[d].target : std::min(home.base, dots[d].target);
  std::vector<int> key{int(cols.size())};
  key.insert(key.end(), cols.begin(), cols.end());
  key.push_back(int(entryKey.size()) / 3);
  key.insert(key.end(), entryKey.begin(), entryKey.end());
  std::vector<int> runKey;
  for (size_t d = 0; d < dots.size(); ++d) {
    if (d > 0 && dots[d - 1].terms == dots[d].terms) ++runKey[runKey.size() - 2];
    else runKey.insert(runKey.end(), {1, dots[d].terms});
  }
  key.push_back(int(runKey.size()) / 2);
  key.insert(key.end(), runKey.begin(), runKey.end());
  for (const Dot& dot : dots) {
    key.push_back(dot.target - home.base);
    key.insert(key.end(), termData.begin() + dot.termBegin, termData.begin() + dot.termBegin + 2 * dot.terms);
  }
  return key;
}

// Stores a new home shape from its key (homeKey's layout) and returns its index.
int BlockLayout::addShape(const std::vector<int>& key) {
  HomeShape shape{int(homeCols.size()), key[0], int(entries.size()), 0, int(runs.size()), 0, int(pairTargets.size()),
                  int(terms.size())};
  size_t k = 1;
  homeCols.insert(homeCols.end(), key.begin() + 1, key.begin() + 1 + key[0]);
  k += size_t(key[0]);
  shape.entries = key[k++];
  for (int e = 0; e < shape.entries; ++e, k += 3) entries.push_back({key[k], key[k + 1], key[k + 2]});
  shape.runs = key[k++];
  for (int r = 0; r < shape.runs; ++r, k += 2) runs.push_back({key[k], key[k + 1]});
  for (int r = 0; r < shape.runs; ++r) {
    const Run run = runs[size_t(shape.runBegin + r)];
    for (int q = 0; q < run.pairs; ++q) {
      pairTargets.push_back(key[k++]);
      for (int t = 0; t < run.terms; ++t, k += 2) terms.push_back({key[k], key[k + 1]});
    }
  }
  maxHomeCols = std::max(maxHomeCols, shape.cols);
  maxHomeEntries = std::max(maxHomeEntries, shape.entries);
  homeShapes.push_back(shape);
  return int(homeShapes.size()) - 1;
}

}  // namespace varsim
