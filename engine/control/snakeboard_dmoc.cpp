// engine/control/snakeboard_dmoc.cpp — the snakeboard's DMOC transcription: residuals through snakeboardNext (the
// stepper's own update), their analytic Jacobian by the chain rule through the update's intermediates and its
// complex-step derivative (the exact Hessian), the stick-command rows and the shape-rate cost.
#include "engine/control/snakeboard_dmoc.h"

#include <algorithm>
#include <cmath>
#include <complex>

#include "engine/control/se2_step_jacobian.h"
#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {
namespace {

// The initial guess's shape wiggle: amplitude (rad) small against the command ranges; sin(37 k), sin(53 k + 1)
// are deterministic but without period or phase relation at the step (no gait is suggested to the optimiser).
constexpr double kGuessAmplitude = 0.2;

// e1(phi) = (sin 2phi, -2l cos^2 phi, 0) (snakeboard::e1, eq. (19)) and d e1/d phi, for any scalar T.
template <class T>
Eigen::Matrix<T, 3, 1> e1T(double l, const T& phi) {
  using std::cos, std::sin;
  const T c = cos(phi);
  return {sin(2.0 * phi), -2.0 * l * c * c, T(0.0)};
}
template <class T>
Eigen::Matrix<T, 3, 1> e1DerivativeT(double l, const T& phi) {
  using std::cos, std::sin;
  return {2.0 * cos(2.0 * phi), 2.0 * l * sin(2.0 * phi), T(0.0)};
}

// d snakeboardNext / dz at z = (theta, x, y, psi, phi, p, psi_{k+1}, phi_{k+1}): the chain rule through
// snakeboardNext's intermediates in its order (engine/integrators/nonholonomic.cpp), the pose line g exp(h xi)
// through se2StepJacobianT. T = double for the Jacobian, std::complex<double> for its complex-step derivative
// (the dynamics rows' Hessian).
template <class T>
Eigen::Matrix<T, 4, 8> nextJacobian(const SnakeboardParams& p, double alpha, double h,
                                    const Eigen::Matrix<T, 8, 1>& z) {
  using Row = Eigen::Matrix<T, 1, 8>;
  using Vec3 = Eigen::Matrix<T, 3, 1>;
  using Mat38 = Eigen::Matrix<T, 3, 8>;
  const T uPsi = (z[6] - z[3]) / h, uPhi = (z[7] - z[4]) / h;
  const Row duPsi = (Row::Unit(6) - Row::Unit(3)) / h, duPhi = (Row::Unit(7) - Row::Unit(4)) / h;
  const T phiMid = shapeOnSegment(z[4], uPhi, alpha * h);
  const Row dphiMid = Row::Unit(4) + alpha * h * duPhi;
  const Vec3 D = snakeboard::lockedInertia(p).cast<T>();
  const Vec3 eK = e1T(p.l, z[4]), eMid = e1T(p.l, phiMid), eN = e1T(p.l, z[7]);
  const Mat38 deK = e1DerivativeT(p.l, z[4]) * Row::Unit(4), deMid = e1DerivativeT(p.l, phiMid) * dphiMid;
  const Mat38 deN = e1DerivativeT(p.l, z[7]) * Row::Unit(7);
  const T denom = eK.cwiseProduct(D.cwiseProduct(eMid)).sum();  // not dot(): it conjugates (no complex step)
  const Row ddenom = D.cwiseProduct(eMid).transpose() * deK + D.cwiseProduct(eK).transpose() * deMid;
  const T num = z[5] - p.I * uPsi * eK[0];
  const Row dnum = Row::Unit(5) - p.I * (eK[0] * duPsi + uPsi * deK.row(0));
  const T zeta = num / denom;
  const Row dzeta = dnum / denom - (num / (denom * denom)) * ddenom;
  const Vec3 xi = zeta * eMid;
  const Mat38 dxi = eMid * dzeta + zeta * deMid;
  Vec3 mu = D.cwiseProduct(xi);
  mu[0] += p.I * uPsi;
  Mat38 dmu = D.asDiagonal() * dxi;
  dmu.row(0) += p.I * duPsi;
  Eigen::Matrix<T, 3, 3> dG, dV;  // the pose line g exp(h xi)
  se2StepJacobianT<T>(z[0], Vec3(h * xi), dG, dV);
  Eigen::Matrix<T, 4, 8> Jm = Eigen::Matrix<T, 4, 8>::Zero();
  Jm.template topLeftCorner<3, 3>() = dG;
  Jm.template topRows<3>() += h * dV * dxi;
  Jm.row(3) = eN.transpose() * dmu + mu.transpose() * deN;  // p_{k+1} = <mu_k, e1(phi_{k+1})>
  return Jm;
}

Eigen::Matrix<double, 8, 1> inputs(const SnakeboardState& s, double psiNext, double phiNext) {
  Eigen::Matrix<double, 8, 1> z;
  z << s.g.theta, s.g.x, s.g.y, s.psi, s.phi, s.p, psiNext, phiNext;
  return z;
}

void requireAtLeast(double v, double lo, const char* key) {
  if (!std::isfinite(v) || v < lo)
    throw BadInput(std::string("snakeboard plan: key '") + key + "' = " + formatNumber(v) + ": allowed range [" +
                   formatNumber(lo) + ", inf)");
}

}  // namespace

Eigen::Matrix<double, 4, 8> snakeboardNextJacobian(const SnakeboardParams& p, double alpha, double h,
                                                   const SnakeboardState& s, double psiNext, double phiNext) {
  return nextJacobian<double>(p, alpha, h, inputs(s, psiNext, phiNext));
}

std::array<Eigen::Matrix<double, 6, 6>, 4> snakeboardNextHessian(const SnakeboardParams& p, double alpha, double h,
                                                                 const SnakeboardState& s, double psiNext,
                                                                 double phiNext) {
  // Complex step (Squire and Trapp 1998): Im J(z + i e e_j) / e = dJ/dz_j with no subtractive cancellation.
  constexpr double e = 1e-30;
  Eigen::Matrix<std::complex<double>, 8, 1> z = inputs(s, psiNext, phiNext).cast<std::complex<double>>();
  std::array<Eigen::Matrix<double, 6, 6>, 4> H;
  for (int b = 0; b < 6; ++b) {
    const int j = kNonlinearInputs[b];
    z[j] += std::complex<double>(0.0, e);
    const Eigen::Matrix<double, 4, 8> dJ = nextJacobian(p, alpha, h, z).imag() / e;
    z[j] -= std::complex<double>(0.0, e);
    for (int i = 0; i < 4; ++i)
      for (int a = 0; a < 6; ++a) H[size_t(i)](a, b) = dJ(i, kNonlinearInputs[a]);
  }
  for (auto& Hi : H) Hi = 0.5 * (Hi + Hi.transpose()).eval();  // symmetric up to round-off; make it exactly so
  return H;
}

SnakeboardDmoc::SnakeboardDmoc(SnakeboardDmocSpec spec) : spec_(std::move(spec)) {
  if (spec_.N < 1) throw BadInput("snakeboard plan: key 'N' = " + std::to_string(spec_.N) + ": allowed range [1, inf)");
  validateSnakeboardParams(spec_.board);
  requireAtLeast(spec_.h, 1e-300, "dt");
  requireAtLeast(spec_.weightPsi, 0.0, "weight_psi");
  requireAtLeast(spec_.weightPhi, 0.0, "weight_phi");
  if (!(spec_.lag >= 0.0 && spec_.lag < 1.0))
    throw BadInput("snakeboard plan: shape lag exp(-dt/shape_response) = " + formatNumber(spec_.lag) +
                   ": allowed range [0, 1)");
  requireAtLeast(spec_.margin, 0.0, "margin");
  if (spec_.discs < 1 || spec_.discs > 64)
    throw BadInput("snakeboard plan: key 'discs' = " + std::to_string(spec_.discs) + ": allowed range [1, 64]");
  discs_ = coverFootprint(spec_.footprint, spec_.discs);
  for (int i = 0; i < 2; ++i) {
    const char* key = i == 0 ? "psi_max" : "phi_max";
    if (!std::isfinite(spec_.commandLo[i]) || !std::isfinite(spec_.commandHi[i]) ||
        spec_.commandLo[i] > spec_.commandHi[i])
      throw BadInput(std::string("snakeboard plan: key '") + key + "': command range [" +
                     formatNumber(spec_.commandLo[i]) + ", " + formatNumber(spec_.commandHi[i]) +
                     "] is empty or not finite");
  }
}

void SnakeboardDmoc::bounds(Eigen::VectorXd& xL, Eigen::VectorXd& xU, Eigen::VectorXd& gL, Eigen::VectorXd& gU) const {
  const int n = numVariables(), N = spec_.N;
  const SnakeboardState& s = spec_.start;
  const Eigen::Vector2d r0(s.psi, s.phi);
  // Every node shape is a convex combination of r_0 and the commands, so these node bounds cut nothing feasible;
  // they keep the iterates' steering away from pi/2, where the update has no solution.
  const Eigen::Vector2d rN = restShape();
  const Eigen::Vector2d lo = spec_.commandLo.cwiseMin(r0).cwiseMin(rN), hi = spec_.commandHi.cwiseMax(r0).cwiseMax(rN);
  xL = Eigen::VectorXd::Constant(n, -kNlpInfinity);
  xU = Eigen::VectorXd::Constant(n, kNlpInfinity);
  for (int k = 0; k <= N; ++k) {
    xL.segment<2>(6 * k + 3) = lo;
    xU.segment<2>(6 * k + 3) = hi;
  }
  const double x0[6] = {s.g.theta, s.g.x, s.g.y, s.psi, s.phi, s.p};
  const double xN[6] = {spec_.target.theta, spec_.target.x, spec_.target.y, rN[0], rN[1], 0.0};  // at rest
  for (int i = 0; i < 6; ++i) {
    xL[i] = xU[i] = x0[i];
    xL[6 * N + i] = xU[6 * N + i] = xN[i];
  }
  const int m = numConstraints();
  gL = Eigen::VectorXd::Zero(m);
  gU = Eigen::VectorXd::Zero(m);
  for (int k = 0; k < N; ++k) {
    gL.segment<2>(numDynamics() + 2 * k) = spec_.commandLo;
    gU.segment<2>(numDynamics() + 2 * k) = spec_.commandHi;
  }
  const int clear = numDynamics() + 2 * N;
  gL.tail(m - clear).setConstant(spec_.margin);
  gU.tail(m - clear).setConstant(kNlpInfinity);
}

Eigen::VectorXd SnakeboardDmoc::initialGuess() const {
  const int N = spec_.N;
  const SnakeboardState& s = spec_.start;
  const se2::Pose2 a = s.g, t = spec_.target;
  const Eigen::Vector2d rN = restShape();
  Eigen::VectorXd x(numVariables());
  for (int k = 0; k <= N; ++k) {
    const double f = double(k) / N;
    // Clipped to the node bounds below (a command range may exclude the wiggle about the straight shape path).
    const double psi = s.psi + f * (rN[0] - s.psi) + (k == 0 || k == N ? 0.0 : kGuessAmplitude * std::sin(37.0 * k));
    const double phi =
        s.phi + f * (rN[1] - s.phi) + (k == 0 || k == N ? 0.0 : 0.5 * kGuessAmplitude * std::sin(53.0 * k + 1.0));
    x.segment<6>(6 * k) << a.theta + f * (t.theta - a.theta), a.x + f * (t.x - a.x), a.y + f * (t.y - a.y), psi, phi,
        0.0;
  }
  x[5] = s.p;
  Eigen::VectorXd xL, xU, gL, gU;
  bounds(xL, xU, gL, gU);
  return x.cwiseMax(xL).cwiseMin(xU);
}

Eigen::Vector2d SnakeboardDmoc::restShape() const {
  const SnakeboardState& s = spec_.start;
  return spec_.restShape.allFinite() ? spec_.restShape : Eigen::Vector2d(s.psi, s.phi);
}

SnakeboardState SnakeboardDmoc::node(const Eigen::VectorXd& x, int k) const {
  return snakeboardStart({x[6 * k], x[6 * k + 1], x[6 * k + 2]}, x[6 * k + 3], x[6 * k + 4], x[6 * k + 5]);
}

Eigen::Vector2d SnakeboardDmoc::shapeRate(const Eigen::VectorXd& x, int k) const {
  return (x.segment<2>(6 * (k + 1) + 3) - x.segment<2>(6 * k + 3)) / spec_.h;
}

Eigen::Vector2d SnakeboardDmoc::command(const Eigen::VectorXd& x, int k) const {
  return (x.segment<2>(6 * (k + 1) + 3) - spec_.lag * x.segment<2>(6 * k + 3)) / (1.0 - spec_.lag);
}

DmocLayout SnakeboardDmoc::layout() const {
  DmocLayout l;
  l.N = spec_.N;
  l.h = spec_.h;
  l.controlsAreNodes = true;
  for (int k = 0; k <= spec_.N; ++k) l.controls.push_back({6 * k + 3, 6 * k + 4});
  l.controlWeights = Eigen::Vector2d(spec_.weightPsi, spec_.weightPhi);
  const int n = 6 * spec_.N;
  l.terminal = {n, n + 1, n + 2, n + 5};  // pose and p (at rest) of node N; its shape stays r_0
  l.target = Eigen::Vector4d(spec_.target.theta, spec_.target.x, spec_.target.y, 0.0);
  return l;
}

// Effort h sum_k u_k^T W u_k over the shape rates (smoothness, terminal penalty: engine/control/dmoc_costs.h).
double SnakeboardDmoc::objective(const Eigen::VectorXd& x) const {
  const Eigen::Vector2d W(spec_.weightPsi, spec_.weightPhi);
  double J = 0.0;
  for (int k = 0; k < spec_.N; ++k) {
    const Eigen::Vector2d u = shapeRate(x, k);
    J += spec_.h * u.dot(W.cwiseProduct(u));
  }
  return J;
}

Eigen::VectorXd SnakeboardDmoc::gradient(const Eigen::VectorXd& x) const {
  const double h = spec_.h;
  const Eigen::Vector2d W(spec_.weightPsi, spec_.weightPhi);
  // dJ/du_k = 2 h W u_k, and d u_k / d r = (+1/h at k+1, -1/h at k).
  Eigen::VectorXd g = Eigen::VectorXd::Zero(numVariables());
  for (int k = 0; k < spec_.N; ++k) {
    const Eigen::Vector2d dJdu = 2.0 * h * W.cwiseProduct(shapeRate(x, k));
    g.segment<2>(6 * (k + 1) + 3) += dJdu / h;
    g.segment<2>(6 * k + 3) -= dJdu / h;
  }
  return g;
}

Eigen::VectorXd SnakeboardDmoc::constraints(const Eigen::VectorXd& x) const {
  Eigen::VectorXd g(numConstraints());
  for (int k = 0; k < spec_.N; ++k) {
    const int j = 6 * (k + 1);
    const SnakeboardState next = snakeboardNext(spec_.board, spec_.alpha, spec_.h, node(x, k), x[j + 3], x[j + 4]);
    g.segment<4>(4 * k) << x[j] - next.g.theta, x[j + 1] - next.g.x, x[j + 2] - next.g.y, x[j + 5] - next.p;
    g.segment<2>(numDynamics() + 2 * k) = command(x, k);
  }
  int row = numDynamics() + 2 * spec_.N;
  for (int k = 1; k <= spec_.N; ++k)
    for (const PlanarBox& b : spec_.obstacles)
      g[row++] = discsBoxClearance(discs_, x[6 * k], x[6 * k + 1], x[6 * k + 2], b, nullptr, nullptr);
  return g;
}

void SnakeboardDmoc::jacobian(const Eigen::VectorXd& x, std::vector<Eigen::Triplet<double>>& out) const {
  out.clear();
  const int outIndex[4] = {0, 1, 2, 5};  // node entries of the rows (theta, x, y, p)
  for (int k = 0; k < spec_.N; ++k) {
    const int j = 6 * (k + 1);
    const Eigen::Matrix<double, 4, 8> Jk =
        snakeboardNextJacobian(spec_.board, spec_.alpha, spec_.h, node(x, k), x[j + 3], x[j + 4]);
    for (int i = 0; i < 4; ++i) {
      for (int c = 0; c < 6; ++c) out.emplace_back(4 * k + i, 6 * k + c, -Jk(i, c));
      out.emplace_back(4 * k + i, j + 3, -Jk(i, 6));
      out.emplace_back(4 * k + i, j + 4, -Jk(i, 7));
      out.emplace_back(4 * k + i, j + outIndex[i], 1.0);
    }
    for (int i = 0; i < 2; ++i) {
      const int row = numDynamics() + 2 * k + i;
      out.emplace_back(row, 6 * k + 3 + i, -spec_.lag / (1.0 - spec_.lag));
      out.emplace_back(row, j + 3 + i, 1.0 / (1.0 - spec_.lag));
    }
  }
  int row = numDynamics() + 2 * spec_.N;
  for (int k = 1; k <= spec_.N; ++k)
    for (const PlanarBox& b : spec_.obstacles) {
      Eigen::Vector3d grad;
      discsBoxClearance(discs_, x[6 * k], x[6 * k + 1], x[6 * k + 2], b, &grad, nullptr);
      for (int c = 0; c < 3; ++c) out.emplace_back(row, 6 * k + c, grad[c]);
      ++row;
    }
}

void SnakeboardDmoc::hessian(const Eigen::VectorXd& x, double objFactor, const Eigen::VectorXd& lambda,
                             std::vector<Eigen::Triplet<double>>& out) const {
  out.clear();
  const int N = spec_.N;
  const double h = spec_.h;
  // Effort: per shape component c, (w_c/h) sum (r_{k+1} - r_k)^2.
  for (int c = 0; c < 2; ++c) {
    const double w = (c == 0 ? spec_.weightPsi : spec_.weightPhi) * objFactor;
    for (int k = 0; k < N; ++k) {
      const int a = 6 * k + 3 + c, b = a + 6;
      out.emplace_back(a, a, 2.0 * w / h);
      out.emplace_back(b, b, 2.0 * w / h);
      out.emplace_back(b, a, -2.0 * w / h);
    }
  }
  // Dynamics rows x_{k+1} - next(z_k): -sum_i lambda_i d2 next_i / dz2 over the nonlinear inputs of z_k.
  for (int k = 0; k < N; ++k) {
    const int j = 6 * (k + 1), var[8] = {6 * k, 6 * k + 1, 6 * k + 2, 6 * k + 3, 6 * k + 4, 6 * k + 5, j + 3, j + 4};
    const std::array<Eigen::Matrix<double, 6, 6>, 4> Hk =
        snakeboardNextHessian(spec_.board, spec_.alpha, h, node(x, k), x[j + 3], x[j + 4]);
    Eigen::Matrix<double, 6, 6> H = Eigen::Matrix<double, 6, 6>::Zero();
    for (int i = 0; i < 4; ++i) H -= lambda[4 * k + i] * Hk[size_t(i)];
    for (int a = 0; a < 6; ++a)
      for (int b = 0; b <= a; ++b)  // var is increasing along kNonlinearInputs, so the row index is >= the column's
        out.emplace_back(var[kNonlinearInputs[a]], var[kNonlinearInputs[b]], H(a, b));
  }
  // Clearance rows: sum_b lambda_b d2 clearance_b / d(theta, x, y)2 at each node 1..N.
  if (spec_.obstacles.empty()) return;
  int row = numDynamics() + 2 * N;
  for (int k = 1; k <= N; ++k) {
    Eigen::Matrix3d H = Eigen::Matrix3d::Zero(), Hb;
    for (const PlanarBox& b : spec_.obstacles) {
      discsBoxClearance(discs_, x[6 * k], x[6 * k + 1], x[6 * k + 2], b, nullptr, &Hb);
      H += lambda[row++] * Hb;
    }
    for (int a = 0; a < 3; ++a)
      for (int c = 0; c <= a; ++c) out.emplace_back(6 * k + a, 6 * k + c, H(a, c));
  }
}

double SnakeboardDmoc::dynResidual(const Eigen::VectorXd& x, int k) const {
  const int j = 6 * (k + 1);
  const SnakeboardState next = snakeboardNext(spec_.board, spec_.alpha, spec_.h, node(x, k), x[j + 3], x[j + 4]);
  return std::max({std::abs(x[j] - next.g.theta), std::abs(x[j + 1] - next.g.x), std::abs(x[j + 2] - next.g.y),
                   std::abs(x[j + 5] - next.p)});
}

double SnakeboardDmoc::discClearance(const Eigen::VectorXd& x, int k) const {
  double best = kNlpInfinity;
  for (const PlanarBox& b : spec_.obstacles)
    best = std::min(best, discsBoxClearance(discs_, x[6 * k], x[6 * k + 1], x[6 * k + 2], b, nullptr, nullptr));
  return best;
}

}  // namespace varsim
