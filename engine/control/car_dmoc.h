// engine/control/car_dmoc.h — DMOC transcription (seed 000 Sec. 6, Junge et al. 2005) of the car of Sec. 5.2.1:
// the discrete dynamics constraints are x_{k+1} - carNext(x_k, u_k) = 0, i.e. the explicit update of eqs.
// (16)-(17) that the car scene steps with (engine/integrators/nonholonomic.h), not a second copy of it.
// Variables, interleaved for a banded Jacobian: node k = (theta, x, y, sigma, p^-) at 7k, segment k = (u^sigma,
// f^psi) at 7k + 5; n = 7N + 5. The pose enters as (theta, x, y) directly: on SE(2) that chart is global (theta
// is not wrapped), so the group structure costs nothing here. Constraints: 5N dynamics rows, then one clearance
// row per node 1..N and box b: min_j d(disc_j(x_k), b) - r >= margin over the discs j covering the footprint
// (the nearest disc's row: 4x fewer rows than one per disc; the min only switches between discs of one body).
#pragma once

#include <array>
#include <vector>

#include "engine/control/dmoc_costs.h"
#include "engine/control/nlp.h"
#include "engine/integrators/nonholonomic.h"
#include "engine/models/planar_obstacles.h"

namespace varsim {

struct CarDmocSpec {
  CarParams car;
  double alpha = 0.5;            // the stepper's quadrature point
  double h = 0.05;               // s, the stepper's step
  int N = 200;                   // segments, >= 1
  CarState start;                // g, sigma, pMinus at node 0 (fixed)
  se2::Pose2 target;             // pose at node N (fixed), with p^-_N = 0 (at rest)
  double sigmaMax = 0.68;        // |sigma_k| bound (tan of the steering limit, slightly inside)
  double maxSteerRate = 1.0;     // 1/s, |u^sigma_k| bound
  double maxTorque = 1.0;        // N m, |f_k| bound
  double weightSteer = 1.0;      // W = diag(weightSteer, weightTorque) in the effort h sum u^T W u
  double weightTorque = 0.1;
  // Free final time: h is the variable at index 7N + 5 (n = 7N + 6), in [hMin, hMax], starting from h; the plan
  // then replays through the stepper at the optimal h (the scene's dt set to it). Else h is fixed.
  bool freeTime = false;
  double hMin = 0.0, hMax = 0.0;  // s
  Footprint footprint;           // body-frame outline covered by `discs` discs along body x
  int discs = 4;
  std::vector<PlanarBox> obstacles;
  double margin = 0.05;          // m, required clearance of every disc
};

// A disc covering part of the footprint: centre (bx, by) in the body frame, radius r.
struct BodyDisc {
  double bx, by, r;
};
std::vector<BodyDisc> coverFootprint(const Footprint& f, int discs);  // n equal slices, each in its disc

// Signed distance from a point to a box (outside: Euclidean; inside: minus the depth), its gradient and (optional)
// its Hessian: (I - g g^T)/d in a corner's region, 0 elsewhere (piecewise linear there).
double pointBoxDistance(const PlanarBox& b, double px, double py, double* gx, double* gy,
                        Eigen::Matrix2d* hess = nullptr);

// Clearance of a body covered by `discs` at pose (theta, x, y) from box b: min_j d(disc_j centre, b) - r_j, with the
// nearest disc's gradient and (optional) Hessian in (theta, x, y). Shared by the car and snakeboard transcriptions.
double discsBoxClearance(const std::vector<BodyDisc>& discs, double theta, double x, double y, const PlanarBox& b,
                         Eigen::Vector3d* grad, Eigen::Matrix3d* hess);
// An angle's cosine and sine, taken once where one pose meets every box and one box every pose.
struct Turn {
  double c, s;
  static Turn of(double angle);
};
// The same with the cos and sin of theta (`body`) and of b's heading (`box`) given: the same numbers.
double discsBoxClearance(const std::vector<BodyDisc>& discs, Turn body, double x, double y, const PlanarBox& b, Turn box,
                         Eigen::Vector3d* grad, Eigen::Matrix3d* hess);
// d carNext / d(theta, x, y, sigma, p^-, u^sigma, f, h): rows (theta, x, y, sigma, p^-) of the next node. Analytic.
Eigen::Matrix<double, 5, 8> carNextJacobian(const CarParams& p, double alpha, double h, const CarState& s, double steerRate,
                                            double torque);
// Second derivatives: H[i](j, l) = d2 carNext_i / dz_j dz_l over the same z. The complex-step derivative of the
// analytic Jacobian (exact to round-off: no difference is taken). `withStep` false: row and column 7 (h) are left
// zero, one complex step fewer (a fixed step's transcription never reads them; the rest is the same to the bit).
std::array<Eigen::Matrix<double, 8, 8>, 5> carNextHessian(const CarParams& p, double alpha, double h, const CarState& s,
                                                          double steerRate, double torque, bool withStep = true);

class CarDmoc : public Nlp {
 public:
  explicit CarDmoc(CarDmocSpec spec);  // throws BadInput on N < 1, a bad bound or weight
  const CarDmocSpec& spec() const { return spec_; }
  int numVariables() const override { return 7 * spec_.N + 5 + (spec_.freeTime ? 1 : 0); }
  int numConstraints() const override;
  int numDynamics() const { return 5 * spec_.N; }
  void bounds(Eigen::VectorXd& xL, Eigen::VectorXd& xU, Eigen::VectorXd& gL, Eigen::VectorXd& gU) const override;
  // Along the aisle at start heading to below the target, then straight to it; controls zero, p^- ramped to 0.
  Eigen::VectorXd initialGuess() const override;
  double objective(const Eigen::VectorXd& x) const override;
  Eigen::VectorXd gradient(const Eigen::VectorXd& x) const override;
  Eigen::VectorXd constraints(const Eigen::VectorXd& x) const override;
  void jacobian(const Eigen::VectorXd& x, std::vector<Eigen::Triplet<double>>& out) const override;
  // Exact: per segment the 7x7 block of (node k, u_k) (cost, dynamics rows by carNextHessian, node k's
  // clearance rows), node N's pose block, and the smoothness coupling of u_k and u_{k+1}.
  bool hasHessian() const override { return true; }
  void hessian(const Eigen::VectorXd& x, double objFactor, const Eigen::VectorXd& lambda,
               std::vector<Eigen::Triplet<double>>& out) const override;

  double stepSize(const Eigen::VectorXd& x) const;  // h: fixed, or the variable (free final time)
  // Where the controls, target and h live, for the generic cost variants (engine/control/dmoc_costs.h).
  DmocLayout layout() const;
  CarState node(const Eigen::VectorXd& x, int k) const;  // state at node k (psi, u, ... not set)
  double steerRate(const Eigen::VectorXd& x, int k) const { return x[7 * k + 5]; }
  double torque(const Eigen::VectorXd& x, int k) const { return x[7 * k + 6]; }
  double dynResidual(const Eigen::VectorXd& x, int k) const;  // |x_{k+1} - carNext(x_k, u_k)|_inf
  double discClearance(const Eigen::VectorXd& x, int k) const;  // min over discs and boxes of d - r

 private:
  // Node k's clearance from obstacle i (its row), its gradient and Hessian over (theta, x, y) when asked.
  double boxClearance(const Eigen::VectorXd& x, int k, Turn heading, size_t i, Eigen::Vector3d* grad,
                      Eigen::Matrix3d* hess) const;
  Eigen::Matrix3d clearanceHessian(const Eigen::VectorXd& x, int k, const Eigen::VectorXd& lambda, int& row) const;
  CarDmocSpec spec_;
  std::vector<BodyDisc> discs_;
  std::vector<Turn> boxTurns_;  // each obstacle's heading
};

}  // namespace varsim
