// engine/control/snakeboard_dmoc.h — DMOC transcription (seed 000 Sec. 6) of the snakeboard of Sec. 5.2.2: the
// dynamics rows are (theta, x, y, p)_{k+1} - snakeboardNext(node k, r_{k+1}) = 0, the explicit update of eqs.
// (16)-(17) that the snakeboard scene steps with (engine/integrators/nonholonomic.h), not a second copy of it.
// Variables: node k = (theta, x, y, psi, phi, p) at 6k, n = 6(N + 1). The shape r = (psi, phi) is the input: the
// stepper takes the next node's shape, so the controls are the node shapes themselves (u_k = (r_{k+1} - r_k)/h).
// The scene drives the shape through sticks followed with a first-order lag, r_{k+1} = c_k + lag (r_k - c_k);
// the stick commands c_k = (r_{k+1} - lag r_k)/(1 - lag) are linear rows bounded by the scene's stick ranges.
// With obstacles (the arena): one clearance row per node 1..N and box, the nearest covering disc's distance minus
// its radius >= margin (discsBoxClearance, shared with the car).
#pragma once

#include <array>
#include <cmath>

#include "engine/control/car_dmoc.h"
#include "engine/control/dmoc_costs.h"
#include "engine/control/nlp.h"
#include "engine/integrators/nonholonomic.h"

namespace varsim {

struct SnakeboardDmocSpec {
  SnakeboardParams board;
  double alpha = 0.5;     // the stepper's quadrature point
  double h = 0.05;        // s, the stepper's step
  int N = 160;            // segments, >= 1
  SnakeboardState start;  // g, psi, phi, p at node 0 (fixed)
  se2::Pose2 target;      // pose at node N (fixed), with p_N = 0 and r_N = restShape (at rest)
  // rad, (psi, phi) at node N: the shape neutral sticks hold (the scene's (0, trim phi)), so the board stays at rest
  // after the plan; NaN: the start's shape r_0.
  Eigen::Vector2d restShape{std::nan(""), std::nan("")};
  double lag = 0.0;       // exp(-h / shape_response) in [0, 1): the scene's shape lag per step
  Eigen::Vector2d commandLo{-1.0, -0.6}, commandHi{1.0, 0.6};  // rad, ranges of the stick commands (psi, phi)
  double weightPsi = 1.0;     // W = diag(weightPsi, weightPhi) in h sum u^T W u (shape rates); smoothness, terminal
  double weightPhi = 1.0;     // penalty: DmocCosts over layout() (engine/control/dmoc_costs.h)
  Footprint footprint;        // body-frame outline covered by `discs` discs along body x
  int discs = 4;
  std::vector<PlanarBox> obstacles;  // one clearance row per node 1..N and box (none: open ground)
  double margin = 0.05;              // m, required clearance of the nearest covering disc
};

// d snakeboardNext / d(theta, x, y, psi, phi, p, psi_{k+1}, phi_{k+1}): rows (theta, x, y, p) of node k+1.
Eigen::Matrix<double, 4, 8> snakeboardNextJacobian(const SnakeboardParams& p, double alpha, double h,
                                                   const SnakeboardState& s, double psiNext, double phiNext);

// The inputs of z on which snakeboardNext depends nonlinearly (x and y enter the pose rows linearly).
constexpr int kNonlinearInputs[6] = {0, 3, 4, 5, 6, 7};
// d2 next_i / dz2 over kNonlinearInputs for the rows i = (theta, x, y, p): the complex-step derivative of the
// analytic Jacobian (exact to round-off; no difference quotient), symmetric.
std::array<Eigen::Matrix<double, 6, 6>, 4> snakeboardNextHessian(const SnakeboardParams& p, double alpha, double h,
                                                                 const SnakeboardState& s, double psiNext,
                                                                 double phiNext);

class SnakeboardDmoc : public Nlp {
 public:
  explicit SnakeboardDmoc(SnakeboardDmocSpec spec);  // throws BadInput on N < 1, a bad range, lag or weight
  const SnakeboardDmocSpec& spec() const { return spec_; }
  int numVariables() const override { return 6 * (spec_.N + 1); }
  int numConstraints() const override { return numDynamics() + 2 * spec_.N + spec_.N * int(spec_.obstacles.size()); }
  int numDynamics() const { return 4 * spec_.N; }
  void bounds(Eigen::VectorXd& xL, Eigen::VectorXd& xU, Eigen::VectorXd& gL, Eigen::VectorXd& gU) const override;
  // Pose and shape interpolated linearly from start to target, p = 0 (p_0 at node 0), plus a small
  // pseudo-random wiggle psi = 0.2 sin(37 k), phi = 0.1 sin(53 k + 1) (rad; no period or phase relation): with the
  // shape held at r_0 the linearised dynamics cannot move the board (it moves only through products of shape
  // rates) and Ipopt declares the problem infeasible. The guess violates the dynamics rows; the gait (amplitudes,
  // phases, timing) is left entirely to the optimiser.
  Eigen::VectorXd initialGuess() const override;
  double objective(const Eigen::VectorXd& x) const override;
  Eigen::VectorXd gradient(const Eigen::VectorXd& x) const override;
  Eigen::VectorXd constraints(const Eigen::VectorXd& x) const override;
  void jacobian(const Eigen::VectorXd& x, std::vector<Eigen::Triplet<double>>& out) const override;
  // Exact Hessian of the Lagrangian: the effort's (constant) plus, per segment, -sum_i lambda_i snakeboardNextHessian.
  bool hasHessian() const override { return true; }
  void hessian(const Eigen::VectorXd& x, double objFactor, const Eigen::VectorXd& lambda,
               std::vector<Eigen::Triplet<double>>& out) const override;

  // For DmocCosts: the controls are the node shapes (controlsAreNodes), W, the target (pose, p = 0) of node N.
  DmocLayout layout() const;
  Eigen::Vector2d restShape() const;                                 // r_N (spec().restShape, or r_0)
  SnakeboardState node(const Eigen::VectorXd& x, int k) const;       // g, psi, phi, p at node k
  Eigen::Vector2d shapeRate(const Eigen::VectorXd& x, int k) const;  // u_k = (r_{k+1} - r_k)/h, k < N
  Eigen::Vector2d command(const Eigen::VectorXd& x, int k) const;    // c_k = (r_{k+1} - lag r_k)/(1 - lag)
  double dynResidual(const Eigen::VectorXd& x, int k) const;         // |(theta, x, y, p)_{k+1} - snakeboardNext|_inf
  double discClearance(const Eigen::VectorXd& x, int k) const;       // min over boxes of the nearest disc's d - r

 private:
  SnakeboardDmocSpec spec_;
  std::vector<BodyDisc> discs_;
};

}  // namespace varsim
