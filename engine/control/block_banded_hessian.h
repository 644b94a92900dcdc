// engine/control/block_banded_hessian.h — storage and emission of the exact Hessian of an SO(3)xR^3 DMOC Lagrangian
// (heli_dmoc, boat_dmoc): node blocks [theta, x, w, v, u] (the last node [theta, x]) couple only within a block and,
// through the eq. (9) pose rows of segment k, theta_{k+1} against (theta_k, w_k). A transcription adds its terms into
// the dense per-block matrices and emits one fixed lower-triangle pattern (independent of x, s and lambda).
#pragma once

#include <utility>
#include <vector>

#include <Eigen/SparseCore>

#include "engine/control/lgvi_hessian.h"

namespace varsim {

class BlockBandedHessian {
 public:
  // N segments, `block` variables per node 0..N-1, 6 at node N. `groups`: the half-open ranges of a node block whose
  // lower triangles are emitted, in order (pairs across two groups are structurally zero and not emitted).
  BlockBandedHessian(int N, int block, std::vector<std::pair<int, int>> groups);

  Eigen::MatrixXd& node(int k) { return D_[size_t(k)]; }  // block x block, symmetric (both triangles kept)
  // Adds lam^T d2(eq. (9) rows of segment k) (lgviPoseRowsHessian, z = (theta_k, w_k, v_k, theta_{k+1})).
  void addPoseRows(int k, const Matrix12d& P);
  // Lower triangle: per node its groups, column by column, then theta_{k+1} against (theta_k, w_k).
  void emit(std::vector<Eigen::Triplet<double>>& out) const;

 private:
  int N_, block_;
  std::vector<std::pair<int, int>> groups_;
  std::vector<Eigen::MatrixXd> D_;
  std::vector<Eigen::Matrix<double, 3, 6>> X_;  // d2/(dtheta_{k+1} d(theta_k, w_k))
};

}  // namespace varsim
