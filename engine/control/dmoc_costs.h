// engine/control/dmoc_costs.h — the cost variants of issue 10 item 1 that every DMOC transcription gets through
// one wrapper Nlp: smoothness of u, a terminal penalty instead of the target equality, and a cost on the final
// time T = N h when the transcription makes h a variable. The transcription keeps its own effort cost
// h sum u^T W u and says where its controls, target and h live (DmocLayout); the wrapper adds the rest.
#pragma once

#include <vector>

#include "engine/control/nlp.h"

namespace varsim {

struct DmocLayout {
  int N = 0;                               // segments, >= 1
  double h = 0.0;                          // s, the step when it is fixed (hIndex < 0)
  int hIndex = -1;                         // variable index of h when the final time is free, else -1
  std::vector<std::vector<int>> controls;  // controls[k]: variable indices of u_k, k = 0..N-1 (see controlsAreNodes)
  // true: controls[k], k = 0..N, index node values r_k and u_k = (r_{k+1} - r_k)/h (the snakeboard, whose inputs
  // are its node shapes); the smoothness sum |u_{k+1} - u_k|^2 / h is then |r_{k+2} - 2 r_{k+1} + r_k|^2 / h^3.
  bool controlsAreNodes = false;
  Eigen::VectorXd controlWeights;          // diagonal of W, one entry per entry of u_k, >= 0
  std::vector<int> terminal;               // variable indices the target fixes (bounds xL = xU = target)
  Eigen::VectorXd target;                  // their target values
  // Reference tracking (a receding horizon following a moving goal): tracked[i] are variable indices (a node's
  // position) drawn to trackTargets[i]; empty when the transcription offers none.
  std::vector<std::vector<int>> tracked;
  std::vector<Eigen::VectorXd> trackTargets;
};

struct DmocCostOptions {
  double smooth = 0.0;          // + smooth sum_{k<N-1} |u_{k+1} - u_k|_W^2 / h   (>= 0)
  // 0: the target is an equality (the transcription's bounds). > 0: those variables are free and the cost gets
  // + terminalWeight sum_i (x_i - target_i)^2 (one weight over mixed units: scale it to the problem).
  double terminalWeight = 0.0;
  double timeWeight = 0.0;      // + timeWeight N h: the final time (needs hIndex >= 0), >= 0
  // + track h sum_i |x[tracked[i]] - trackTargets[i]|^2 (>= 0; needs a fixed h and tracked entries): a running cost
  // that pulls every node towards the goal's predicted path, where a terminal penalty alone lets a re-planned
  // horizon put off the approach to the end of a horizon that never comes.
  double track = 0.0;
};

// `base` must outlive the wrapper. Throws BadInput naming the key (weight_smooth, terminal_weight, weight_time,
// weight_track) on a negative or non-finite weight, a time weight without a free h, or tracking with a free h or
// nothing to track.
class DmocCosts : public Nlp {
 public:
  DmocCosts(const Nlp& base, DmocLayout layout, DmocCostOptions options);
  const DmocLayout& layout() const { return layout_; }
  double stepSize(const Eigen::VectorXd& x) const { return layout_.hIndex >= 0 ? x[layout_.hIndex] : layout_.h; }

  int numVariables() const override { return base_.numVariables(); }
  int numConstraints() const override { return base_.numConstraints(); }
  void bounds(Eigen::VectorXd& xL, Eigen::VectorXd& xU, Eigen::VectorXd& gL, Eigen::VectorXd& gU) const override;
  Eigen::VectorXd initialGuess() const override { return base_.initialGuess(); }
  double objective(const Eigen::VectorXd& x) const override;
  Eigen::VectorXd gradient(const Eigen::VectorXd& x) const override;
  Eigen::VectorXd constraints(const Eigen::VectorXd& x) const override { return base_.constraints(x); }
  void jacobian(const Eigen::VectorXd& x, std::vector<Eigen::Triplet<double>>& out) const override {
    base_.jacobian(x, out);
  }
  bool hasHessian() const override { return base_.hasHessian(); }
  void hessian(const Eigen::VectorXd& x, double objFactor, const Eigen::VectorXd& lambda,
               std::vector<Eigen::Triplet<double>>& out) const override;

 private:
  // The smoothness term is smooth * S / h^p with S = sum_{k<N-1} sum_j W_j d_kj^2 and d_kj = sum_m coef_m x[i_m]
  // (i_m = controls[k + m][j]): d = u_{k+1} - u_k, p = 1 for control variables; d = r_{k+2} - 2 r_{k+1} + r_k,
  // p = 3 for node values.
  int stencilSize() const { return layout_.controlsAreNodes ? 3 : 2; }
  int smoothPower() const { return layout_.controlsAreNodes ? 3 : 1; }
  double stencilCoefficient(int m) const;
  double difference(const Eigen::VectorXd& x, int k, size_t j) const;                      // d_kj
  double smoothSum(const Eigen::VectorXd& x) const;                                        // S
  double powerOfStep(double h) const { return layout_.controlsAreNodes ? h * h * h : h; }  // h^p
  double trackSum(const Eigen::VectorXd& x) const;  // sum_i |x[tracked[i]] - trackTargets[i]|^2
  const Nlp& base_;
  DmocLayout layout_;
  DmocCostOptions options_;
};

}  // namespace varsim
