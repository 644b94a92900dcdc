// Symbolic analysis of the block solver (block_tridiagonal_solver.h), done once per J pattern: the
// levels of S = J M⁻¹ Jᵀ + D (breadth-first levels of the constraint graph: S is block tridiagonal
// over them), two elimination chains that meet at a middle level (levels 0…m−1 upwards, L−1…m+1
// downwards: the twisted, "both ends" factorisation, one chain per thread), the row order inside a
// level (rows coupled to the chain's next level last, to its previous level first, so each coupling
// block is a small r × c corner instead of a full w × w block) and the per-body assembly of S: J's
// columns in groups sharing rows (a rod's coordinates), one dense dot per structural entry of S.
#pragma once
#include <cstdint>
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
  // J columns groupCols[colBegin..colEnd) over `rows` rows (G, H: rows × cols, row-major). Its structure,
  // the slots of its nonzeros in G and H and its pairs with targets relative to `base`, is a Shape shared
  // by every group built alike (a ladder has a handful): the assembly then streams J and a few bytes per
  // group instead of per-nonzero slots and per-entry pair records.
  struct Group {
    int lane, home, colBegin, colEnd, rows, shape, base;  // home: its first level eliminated
    int rowBegin;  // its rows' places in the right-hand side: groupRows[rowBegin … rowBegin + rows)
  };
  struct Shape {
    int slotBegin, pairBegin;
    std::uint16_t perLength[8];  // pairs by dot length 1…8, in that order from pairBegin
    std::uint8_t runs, runLength[8];  // the dot lengths that have pairs, ascending (the assembly's loop)
  };
  // store[base + target] += Σ_{c < len} G[a + c] H[b + c]: a, b are row offsets in the group's block plus the
  // first column both rows use, len runs to the last one (the columns outside hold structural zeros).
  struct Pair {
    std::uint16_t a, b;
    int target;
  };
  std::vector<int> position, rowAt;  // row → position in level order, and back
  std::vector<BlockLevel> levels;
  std::vector<int> chain[2];         // lane 0 and lane 1 levels in elimination order
  int middle = 0;
  std::vector<int> diagEntry;        // per position: store index of S_ii
  std::vector<Group> groups;
  std::vector<int> homeStart, homeGroups;  // groups of home level k: homeGroups[homeStart[k] … homeStart[k+1])
  std::vector<int> groupCols;
  // Per group, its rows in level order (the row order of G and H), so the assembly can also subtract
  // J M⁻¹ r from the right-hand side; the lower chain's rows of the middle level map to a private copy
  // after the m positions, extraRow + (p − middle start), so the two lanes never write the same entry.
  std::vector<int> groupRows;
  int extraRow = 0;
  std::vector<Shape> shapes;
  std::vector<Pair> pairs;           // the shapes' pairs
  std::vector<int> slots;            // the shapes' nonzeros in column order: their places in G and H
  std::vector<std::uint8_t> slotRows;  // and their rows in the group (≤ 32 rows)
  int storeSize = 0, extraOff = 0, maxGroupBlock = 0, maxWidth = 0;
  long structuralPairs = 0, dotLength = 0;  // Σ pairs' dot lengths (× the flops of the assembly)

  explicit BlockLayout(const SparseMatrixD& J);
  int levelCount() const { return int(levels.size()); }
  int laneOfPosition(int p) const;

 private:
  std::vector<int> levelOf_;  // per position
  void orderRows(const SparseMatrixD& J, const std::vector<std::vector<int>>& adj, const std::vector<int>& bfsOrder,
                 const std::vector<int>& levelOfRow);
  void placeBlocks(const std::vector<std::vector<int>>& adj);
  void groupColumns(const SparseMatrixD& J);
  int target(int pa, int pb, int lane) const;
  std::vector<int> shapeKey(const SparseMatrixD& J, const std::vector<int>& rows, const std::vector<int>& cols, int lane,
                            int& base) const;
  int addShape(const std::vector<int>& key);
};

}  // namespace varsim
