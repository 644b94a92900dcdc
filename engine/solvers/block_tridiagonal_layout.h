// Symbolic analysis of the block solver (block_tridiagonal_solver.h), done once per J pattern: the
// levels of S = J M⁻¹ Jᵀ + D (breadth-first levels of the constraint graph: S is block tridiagonal
// over them), two elimination chains that meet at a middle level (levels 0…m−1 upwards, L−1…m+1
// downwards: the twisted, "both ends" factorisation, one chain per thread), the row order inside a
// level (rows coupled to the chain's next level last, to its previous level first, so each coupling
// block is a small r × c corner instead of a full w × w block) and the per-body assembly of S: J's
// columns in groups sharing rows (a rod's coordinates), one dot per group and structural entry of S, compiled
// per level into a shape that alike levels share.
#pragma once
#include <vector>

#include "engine/solvers/sparse_solver.h"

namespace varsim {

// Diagonal blocks are stored packed: the lower triangle column by column (column j holds rows j … w − 1),
// 120 instead of 225 doubles at w = 15, so the factor streams 28 % fewer bytes through the substitutions.
// The trailing block from row/column s of a packed block is itself packed (size w − s) at packedIndex(w, s, s).
// A factored diagonal block holds 1 / L_jj on its diagonal (block_dense_kernels.h).
inline int packedSize(int w) { return w * (w + 1) / 2; }
inline int packedIndex(int w, int i, int j) { return j * w - j * (j - 1) / 2 + (i - j); }  // entry (i, j), i ≥ j
// Column j of the packed n × n block P, indexed by row: packedColumn(P, n, j)[i] is entry (i, j) for i ≥ j.
inline double* packedColumn(double* P, int n, int j) { return P + (j * n - j * (j - 1) / 2 - j); }
inline const double* packedColumn(const double* P, int n, int j) { return P + (j * n - j * (j - 1) / 2 - j); }

struct BlockLevel {
  int start = 0, width = 0;  // positions start … start + width − 1 in level order
  int diagOff = 0;           // store offset of the w × w diagonal block (packed lower triangle)
  int lane = 0;              // 0: upward chain, 1: downward chain, 2: the middle level
  int next = -1;             // the level this one is eliminated into (−1: the middle level)
  int sendCol = 0;           // coupling columns: local rows sendCol … width − 1 of this level
  int recvRow = 0, recvRows = 0;  // coupling rows: local rows recvRow … recvRow + recvRows − 1 of `next`
  int coupOff = 0;           // store offset of the recvRows × (width − sendCol) coupling block S(next, this)
};

struct BlockLayout {
  // The assembly of S += J M⁻¹ Jᵀ and w −= J M⁻¹ r is per home level: the body groups (J columns sharing rows, a
  // rod's coordinates) whose first level eliminated is k. A home's structure, relative to its Home record, is a
  // HomeShape shared by every home built alike (a ladder has a handful), so the assembly streams J's values, M⁻¹, r
  // and 20 bytes per level, and no index per nonzero or S entry.
  struct Home {
    int shape;      // homeShapes index
    int base;       // its smallest store target
    int valueBase;  // J's value index of its first column (the smallest)
    int colBase;    // its first column
    int rowBase;    // w position its rows are relative to (the level's start)
  };
  struct HomeShape {
    int colBegin, cols;        // its columns colBase + homeCols[colBegin …)
    int entryBegin, entries;   // its nonzeros: entries[entryBegin …), in the order of the groups, columns, J
    int runBegin, runs;        // its dots: runs[runBegin …), each `pairs` dots of `terms` terms;
    int pairBegin, termBegin;  // their targets from pairTargets[pairBegin], their terms from terms[termBegin]
  };
  // A nonzero: J value valueBase + value, in w row rowBase + row and the home's column col; H[e] = J M⁻¹ there
  // (e its index in the home).
  struct Entry {
    int value, row, col;
  };
  // store[base + target] += Σ_t J[valueBase + a_t] H[b_t]: a dot of a group's columns that both S rows use, in
  // column order (the dense dot of the group's J and J M⁻¹ blocks without its structural zeros, whose products are
  // exact zeros). A home's dots are ordered by phase (the p-th dot into its target) and then term count, so the
  // dots into one target keep their group order and each run has one dot length.
  struct Term {
    int a, b;
  };
  struct Run {
    int pairs, terms;  // pairTargets[…] and terms of this many dots of `terms` terms each, in order
  };
  std::vector<int> position, rowAt;  // row → position in level order, and back
  std::vector<BlockLevel> levels;
  std::vector<int> chain[2];         // lane 0 and lane 1 levels in elimination order
  int middle = 0;
  std::vector<Home> homes;            // per level
  std::vector<HomeShape> homeShapes;
  std::vector<int> homeCols;
  std::vector<Entry> entries;
  std::vector<Run> runs;
  std::vector<int> pairTargets;
  std::vector<Term> terms;
  // The lower chain's rows of the middle level map to a private copy of w after the m positions, extraRow +
  // (p − middle start), so the two lanes never write the same entry.
  int extraRow = 0;
  int storeSize = 0, extraOff = 0, maxWidth = 0, maxHomeCols = 0, maxHomeEntries = 0;
  long groupCount = 0, structuralPairs = 0, dotLength = 0;  // body groups, dots, Σ terms (× the assembly's flops)

  explicit BlockLayout(const SparseMatrixD& J);
  int levelCount() const { return int(levels.size()); }
  int laneOfPosition(int p) const;
  long bytes() const;  // heap of the analysis (its tables, not the store)

 private:
  std::vector<int> levelOf_;  // per position, while the constructor analyses (freed after)
  void orderRows(const SparseMatrixD& J, const std::vector<std::vector<int>>& adj, const std::vector<int>& bfsOrder,
                 const std::vector<int>& levelOfRow);
  void placeBlocks(const std::vector<std::vector<int>>& adj);
  void groupColumns(const SparseMatrixD& J);
  int target(int pa, int pb, int lane) const;
  struct Group {
    std::vector<int> rows, cols;  // positions, J columns (both ascending)
  };
  std::vector<int> homeKey(const SparseMatrixD& J, const std::vector<const Group*>& members, int lane, int k,
                           Home& home) const;
  int addShape(const std::vector<int>& key);
};

}  // namespace varsim
