// engine/control/car_dmoc.cpp — the car's DMOC transcription: residuals through carNext (the stepper's own
// update), their analytic Jacobian by the chain rule through the update's intermediates and its complex-step
// derivative (the exact Hessian), disc clearances with their first and second derivatives.
#include "engine/control/car_dmoc.h"

#include <algorithm>
#include <cmath>
#include <complex>

#include "engine/control/se2_step_jacobian.h"
#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {
namespace {

// d carNext / dz at z = (theta, x, y, sigma, p^-, u^sigma, f, h): the chain rule through carNext's intermediates
// in its order (engine/integrators/nonholonomic.cpp), the pose line g exp((a, b, 0)) through se2StepJacobianT.
// T = double for the Jacobian, std::complex<double> for its complex-step derivative (the dynamics rows' Hessian).
template <class T>
Eigen::Matrix<T, 5, 8> nextJacobian(const CarParams& p, double alpha, const Eigen::Matrix<T, 8, 1>& z) {
  using Row = Eigen::Matrix<T, 1, 8>;
  using Vec3 = Eigen::Matrix<T, 3, 1>;
  const Row e3 = Row::Unit(3), e4 = Row::Unit(4), e5 = Row::Unit(5), e6 = Row::Unit(6), e7 = Row::Unit(7);
  const double I0 = p.I0(), c = p.c(), k = p.rho / p.l;
  const T &sigma = z[3], &pMinus = z[4], &w = z[5], &f = z[6], &h = z[7];
  const T sm = sigma + alpha * h * w;
  const Row dsm = e3 + alpha * h * e5 + alpha * w * e7;
  const T J = I0 + c * sigma * sm;
  const Row dJ = c * (sm * e3 + sigma * dsm);
  const T num = pMinus + h * (1.0 - alpha) * f;
  const Row dnum = e4 + h * (1.0 - alpha) * e6 + (1.0 - alpha) * f * e7;
  const T u = num / J;
  const Row du = dnum / J - (num / (J * J)) * dJ;
  const T a = h * k * sm * u, b = h * p.rho * u;
  const Row da = k * sm * u * e7 + h * k * (u * dsm + sm * du), db = p.rho * u * e7 + h * p.rho * du;
  Eigen::Matrix<T, 3, 3> dG, dV;
  se2StepJacobianT<T>(z[0], Vec3(a, b, T(0.0)), dG, dV);
  const T sn = sigma + h * w;
  const Row dsn = e3 + h * e5 + w * e7;
  Eigen::Matrix<T, 5, 8> Jm = Eigen::Matrix<T, 5, 8>::Zero();
  Jm.template topLeftCorner<3, 3>() = dG;
  Jm.template topRows<3>() += dV.col(0) * da + dV.col(1) * db;
  Jm.row(3) = dsn;
  Jm.row(4) = c * (sm * dsn + sn * dsm) * u + (I0 + c * sn * sm) * du + h * alpha * e6 + alpha * f * e7;
  return Jm;
}

void requireFinite(double v, double lo, const char* key) {
  if (!std::isfinite(v) || v < lo)
    throw BadInput(std::string("car plan: key '") + key + "' = " + formatNumber(v) + ": allowed range [" +
                   formatNumber(lo) + ", inf)");
}

}  // namespace

std::vector<BodyDisc> coverFootprint(const Footprint& f, int discs) {
  std::vector<BodyDisc> out;
  const double len = (f.xMax - f.xMin) / discs, halfW = 0.5 * (f.yMax - f.yMin), r = std::hypot(0.5 * len, halfW);
  for (int j = 0; j < discs; ++j) out.push_back({f.xMin + (j + 0.5) * len, 0.5 * (f.yMin + f.yMax), r});
  return out;
}

namespace {

// pointBoxDistance with the box's cos and sin of its heading given: the clearance rows evaluate every box against
// several discs per node, and the box's sincos was half of the car plan's row evaluation (perf, car_follow).
double boxDistance(const PlanarBox& b, double c, double s, double px, double py, double* gx, double* gy,
                   Eigen::Matrix2d* hess) {
  const double dx = px - b.cx, dy = py - b.cy;
  const double qx = c * dx + s * dy, qy = -s * dx + c * dy;  // in the box frame
  const double ax = std::abs(qx) - b.halfX, ay = std::abs(qy) - b.halfY;
  const double sx = qx >= 0.0 ? 1.0 : -1.0, sy = qy >= 0.0 ? 1.0 : -1.0;
  double d, hx = 0.0, hy = 0.0;  // gradient in the box frame
  if (ax <= 0.0 && ay <= 0.0) {  // inside: minus the depth to the nearer side
    d = std::max(ax, ay);
    (ax > ay ? hx : hy) = ax > ay ? sx : sy;
  } else {
    const double ox = std::max(ax, 0.0), oy = std::max(ay, 0.0);
    d = ox > 0.0 && oy > 0.0 ? std::hypot(ox, oy) : ox + oy;  // beside a face: hypot(o, 0) = o exactly
    hx = sx * ox / d;
    hy = sy * oy / d;
  }
  const double wx = c * hx - s * hy, wy = s * hx + c * hy;  // world gradient
  if (gx) *gx = wx;
  if (gy) *gy = wy;
  if (hess) {  // |o| near a corner: (I - g g^T) / d; flat (0) inside and beside a face
    hess->setZero();
    if (ax > 0.0 && ay > 0.0) *hess = (Eigen::Matrix2d::Identity() - Eigen::Vector2d(wx, wy) * Eigen::RowVector2d(wx, wy)) / d;
  }
  return d;
}

}  // namespace

double pointBoxDistance(const PlanarBox& b, double px, double py, double* gx, double* gy, Eigen::Matrix2d* hess) {
  return boxDistance(b, std::cos(b.heading), std::sin(b.heading), px, py, gx, gy, hess);
}

Eigen::Matrix<double, 5, 8> carNextJacobian(const CarParams& p, double alpha, double h, const CarState& s, double w,
                                            double f) {
  Eigen::Matrix<double, 8, 1> z;
  z << s.g.theta, s.g.x, s.g.y, s.sigma, s.pMinus, w, f, h;
  return nextJacobian(p, alpha, z);
}

std::array<Eigen::Matrix<double, 8, 8>, 5> carNextHessian(const CarParams& p, double alpha, double h, const CarState& s,
                                                          double w, double f, bool withStep) {
  // Complex step (Squire and Trapp 1998): Im J(z + i e e_j) / e = dJ/dz_j with no subtractive cancellation.
  constexpr double e = 1e-30;
  Eigen::Matrix<std::complex<double>, 8, 1> z;
  z << s.g.theta, s.g.x, s.g.y, s.sigma, s.pMinus, w, f, h;
  std::array<Eigen::Matrix<double, 8, 8>, 5> H;
  // The Jacobian does not depend on the position (x, y) (z_1, z_2: the car's update is invariant under translation),
  // so their columns of every H_i are zero and are not stepped.
  for (auto& Hi : H) Hi.setZero();
  for (int j = 0; j < (withStep ? 8 : 7); ++j) {
    if (j == 1 || j == 2) continue;
    z[j] += std::complex<double>(0.0, e);
    const Eigen::Matrix<double, 5, 8> dJ = nextJacobian(p, alpha, z).imag() / e;
    z[j] -= std::complex<double>(0.0, e);
    for (int i = 0; i < 5; ++i) H[size_t(i)].col(j) = dJ.row(i).transpose();
  }
  for (auto& Hi : H) Hi = 0.5 * (Hi + Hi.transpose()).eval();  // symmetric up to round-off; make it exactly so
  for (auto& Hi : H)
    if (!withStep) Hi.row(7).setZero(), Hi.col(7).setZero();  // only half of them taken
  return H;
}

CarDmoc::CarDmoc(CarDmocSpec spec) : spec_(std::move(spec)) {
  if (spec_.N < 1) throw BadInput("car plan: key 'N' = " + std::to_string(spec_.N) + ": allowed range [1, inf)");
  requireFinite(spec_.h, 1e-300, "dt");
  requireFinite(spec_.sigmaMax, 1e-300, "steer_limit");
  requireFinite(spec_.maxSteerRate, 0.0, "max_steer_rate");
  requireFinite(spec_.maxTorque, 0.0, "max_torque");
  requireFinite(spec_.weightSteer, 0.0, "weight_steer");
  requireFinite(spec_.weightTorque, 0.0, "weight_torque");
  if (spec_.freeTime && !(spec_.hMin > 0.0 && spec_.hMin <= spec_.h && spec_.h <= spec_.hMax))
    throw BadInput("car plan: keys 'dt_min' = " + formatNumber(spec_.hMin) + ", 'dt_max' = " + formatNumber(spec_.hMax) +
                   ": allowed 0 < dt_min <= dt (" + formatNumber(spec_.h) + ") <= dt_max");
  requireFinite(spec_.margin, 0.0, "margin");
  if (spec_.discs < 1) throw BadInput("car plan: key 'discs' = " + std::to_string(spec_.discs) + ": allowed range [1, 64]");
  validateCarParams(spec_.car);
  discs_ = coverFootprint(spec_.footprint, spec_.discs);
  for (const PlanarBox& b : spec_.obstacles) boxTurns_.push_back(Turn::of(b.heading));
}

int CarDmoc::numConstraints() const {
  return numDynamics() + spec_.N * int(spec_.obstacles.size());
}

void CarDmoc::bounds(Eigen::VectorXd& xL, Eigen::VectorXd& xU, Eigen::VectorXd& gL, Eigen::VectorXd& gU) const {
  const int n = numVariables(), N = spec_.N;
  xL = Eigen::VectorXd::Constant(n, -kNlpInfinity);
  xU = Eigen::VectorXd::Constant(n, kNlpInfinity);
  for (int k = 0; k <= N; ++k) {
    xL[7 * k + 3] = -spec_.sigmaMax;
    xU[7 * k + 3] = spec_.sigmaMax;
    if (k == N) break;
    xL[7 * k + 5] = -spec_.maxSteerRate;
    xU[7 * k + 5] = spec_.maxSteerRate;
    xL[7 * k + 6] = -spec_.maxTorque;
    xU[7 * k + 6] = spec_.maxTorque;
  }
  if (spec_.freeTime) xL[7 * N + 5] = spec_.hMin, xU[7 * N + 5] = spec_.hMax;
  const CarState& s = spec_.start;
  const double x0[5] = {s.g.theta, s.g.x, s.g.y, s.sigma, s.pMinus};
  for (int i = 0; i < 5; ++i) xL[i] = xU[i] = x0[i];
  const double xN[4] = {spec_.target.theta, spec_.target.x, spec_.target.y};
  for (int i : {0, 1, 2}) xL[7 * N + i] = xU[7 * N + i] = xN[i];
  xL[7 * N + 4] = xU[7 * N + 4] = 0.0;  // at rest
  const int m = numConstraints();
  gL = Eigen::VectorXd::Zero(m);
  gU = Eigen::VectorXd::Zero(m);
  gL.tail(m - numDynamics()).setConstant(spec_.margin);
  gU.tail(m - numDynamics()).setConstant(kNlpInfinity);
}

Eigen::VectorXd CarDmoc::initialGuess() const {
  const int N = spec_.N, half = N / 2;
  const se2::Pose2 a = spec_.start.g, t = spec_.target;
  // Corner below the target along the start heading (projection of the target on the start line).
  const double ct = std::cos(a.theta), st = std::sin(a.theta);
  const double along = ct * (t.x - a.x) + st * (t.y - a.y);
  const double cx = a.x + along * ct, cy = a.y + along * st;
  Eigen::VectorXd x = Eigen::VectorXd::Zero(numVariables());
  for (int k = 0; k <= N; ++k) {
    double th, px, py;
    if (k <= half) {
      const double s = double(k) / half;
      th = a.theta, px = a.x + s * (cx - a.x), py = a.y + s * (cy - a.y);
    } else {
      const double s = double(k - half) / (N - half);
      th = a.theta + s * (t.theta - a.theta), px = cx + s * (t.x - cx), py = cy + s * (t.y - cy);
    }
    x.segment<5>(7 * k) << th, px, py, 0.0, spec_.start.pMinus * (1.0 - double(k) / N);
  }
  x.head<5>() << a.theta, a.x, a.y, spec_.start.sigma, spec_.start.pMinus;
  if (spec_.freeTime) x[7 * N + 5] = spec_.h;
  return x;
}

double CarDmoc::stepSize(const Eigen::VectorXd& x) const { return spec_.freeTime ? x[7 * spec_.N + 5] : spec_.h; }

DmocLayout CarDmoc::layout() const {
  DmocLayout l;
  l.N = spec_.N;
  l.h = spec_.h;
  l.hIndex = spec_.freeTime ? 7 * spec_.N + 5 : -1;
  for (int k = 0; k < spec_.N; ++k) l.controls.push_back({7 * k + 5, 7 * k + 6});
  l.controlWeights = Eigen::Vector2d(spec_.weightSteer, spec_.weightTorque);
  const int n = 7 * spec_.N;
  l.terminal = {n, n + 1, n + 2, n + 4};  // pose and p^- (at rest) of node N
  l.target = Eigen::Vector4d(spec_.target.theta, spec_.target.x, spec_.target.y, 0.0);
  return l;
}

// Control effort h sum_k u_k^T W u_k (smoothness, terminal penalty, final time: engine/control/dmoc_costs.h).
double CarDmoc::objective(const Eigen::VectorXd& x) const {
  double J = 0.0;
  for (int k = 0; k < spec_.N; ++k) {
    const double w = steerRate(x, k), f = torque(x, k);
    J += spec_.weightSteer * w * w + spec_.weightTorque * f * f;
  }
  return stepSize(x) * J;
}

Eigen::VectorXd CarDmoc::gradient(const Eigen::VectorXd& x) const {
  const double h = stepSize(x), ws = spec_.weightSteer, wt = spec_.weightTorque;
  Eigen::VectorXd g = Eigen::VectorXd::Zero(numVariables());
  for (int k = 0; k < spec_.N; ++k) {
    g[7 * k + 5] = 2.0 * h * ws * steerRate(x, k);
    g[7 * k + 6] = 2.0 * h * wt * torque(x, k);
  }
  if (spec_.freeTime) g[7 * spec_.N + 5] = objective(x) / h;
  return g;
}

CarState CarDmoc::node(const Eigen::VectorXd& x, int k) const {
  CarState s;
  s.g = {x[7 * k], x[7 * k + 1], x[7 * k + 2]};
  s.sigma = x[7 * k + 3];
  s.pMinus = x[7 * k + 4];
  return s;
}

Eigen::VectorXd CarDmoc::constraints(const Eigen::VectorXd& x) const {
  Eigen::VectorXd g(numConstraints());
  const int N = spec_.N;
  for (int k = 0; k < N; ++k) {
    const CarState next = carNext(spec_.car, spec_.alpha, stepSize(x), node(x, k), steerRate(x, k), torque(x, k));
    g.segment<5>(5 * k) << x[7 * (k + 1)] - next.g.theta, x[7 * (k + 1) + 1] - next.g.x, x[7 * (k + 1) + 2] - next.g.y,
        x[7 * (k + 1) + 3] - next.sigma, x[7 * (k + 1) + 4] - next.pMinus;
  }
  int row = numDynamics();
  for (int k = 1; k <= N; ++k) {
    const Turn heading = Turn::of(x[7 * k]);
    for (size_t i = 0; i < spec_.obstacles.size(); ++i) g[row++] = boxClearance(x, k, heading, i, nullptr, nullptr);
  }
  return g;
}

void CarDmoc::jacobian(const Eigen::VectorXd& x, std::vector<Eigen::Triplet<double>>& out) const {
  out.clear();
  const int N = spec_.N;
  for (int k = 0; k < N; ++k) {
    const Eigen::Matrix<double, 5, 8> Jk =
        carNextJacobian(spec_.car, spec_.alpha, stepSize(x), node(x, k), steerRate(x, k), torque(x, k));
    for (int i = 0; i < 5; ++i) {
      for (int j = 0; j < 7; ++j) out.emplace_back(5 * k + i, 7 * k + j, -Jk(i, j));
      out.emplace_back(5 * k + i, 7 * (k + 1) + i, 1.0);
      if (spec_.freeTime) out.emplace_back(5 * k + i, 7 * N + 5, -Jk(i, 7));
    }
  }
  int row = numDynamics();
  for (int k = 1; k <= N; ++k) {
    const Turn heading = Turn::of(x[7 * k]);
    for (size_t i = 0; i < spec_.obstacles.size(); ++i) {
      Eigen::Vector3d grad;
      boxClearance(x, k, heading, i, &grad, nullptr);
      for (int j = 0; j < 3; ++j) out.emplace_back(row, 7 * k + j, grad[j]);
      ++row;
    }
  }
}

// Clearance of node k from box b: min over the covering discs of d(disc centre, b) - r (one row per node and box;
// the nearest disc decides, first on ties), with its gradient and Hessian over (theta, x, y) when asked: the
// distance's Hessian through the centre p(theta, x, y) plus its gradient times d2p/dtheta2.
double CarDmoc::boxClearance(const Eigen::VectorXd& x, int k, Turn heading, size_t i, Eigen::Vector3d* grad,
                             Eigen::Matrix3d* hess) const {
  return discsBoxClearance(discs_, heading, x[7 * k + 1], x[7 * k + 2], spec_.obstacles[i], boxTurns_[i], grad, hess);
}

Turn Turn::of(double angle) { return {std::cos(angle), std::sin(angle)}; }

double discsBoxClearance(const std::vector<BodyDisc>& discs, double theta, double x, double y, const PlanarBox& b,
                         Eigen::Vector3d* grad, Eigen::Matrix3d* hess) {
  return discsBoxClearance(discs, Turn::of(theta), x, y, b, Turn::of(b.heading), grad, hess);
}

double discsBoxClearance(const std::vector<BodyDisc>& discs, Turn body, double x, double y, const PlanarBox& b, Turn box,
                         Eigen::Vector3d* grad, Eigen::Matrix3d* hess) {
  const double ct = body.c, st = body.s, cb = box.c, sb = box.s;
  double best = kNlpInfinity, ox = 0.0, oy = 0.0;
  for (const BodyDisc& d : discs) {
    const double dx = ct * d.bx - st * d.by, dy = st * d.bx + ct * d.by;  // disc centre minus (x, y)
    const double v = boxDistance(b, cb, sb, x + dx, y + dy, nullptr, nullptr, nullptr) - d.r;
    if (v < best) best = v, ox = dx, oy = dy;
  }
  if (!grad && !hess) return best;
  double gx, gy;
  Eigen::Matrix2d Hp;
  boxDistance(b, cb, sb, x + ox, y + oy, &gx, &gy, &Hp);
  Eigen::Matrix<double, 2, 3> Jp;
  Jp << -oy, 1.0, 0.0, ox, 0.0, 1.0;
  if (grad) *grad = Jp.transpose() * Eigen::Vector2d(gx, gy);
  if (hess) {
    *hess = Jp.transpose() * Hp * Jp;
    (*hess)(0, 0) -= gx * ox + gy * oy;
  }
  return best;
}

Eigen::Matrix3d CarDmoc::clearanceHessian(const Eigen::VectorXd& x, int k, const Eigen::VectorXd& lambda, int& row) const {
  Eigen::Matrix3d H = Eigen::Matrix3d::Zero(), Hb;
  const Turn heading = Turn::of(x[7 * k]);
  for (size_t i = 0; i < spec_.obstacles.size(); ++i) {
    boxClearance(x, k, heading, i, nullptr, &Hb);
    H += lambda[row++] * Hb;
  }
  return H;
}

// Per segment the block of z_k = (node k, u_k[, h]): effort, minus lambda . carNext's Hessian, node k's clearance
// rows; node N's pose block. With free h its row (h, z_k) is listed per segment and summed by the solver.
void CarDmoc::hessian(const Eigen::VectorXd& x, double objFactor, const Eigen::VectorXd& lambda,
                      std::vector<Eigen::Triplet<double>>& out) const {
  out.clear();
  const int N = spec_.N, hIndex = 7 * N + 5;
  const double h = stepSize(x), ws = spec_.weightSteer, wt = spec_.weightTorque;
  auto lower = [&](int base, const auto& B, int size) {
    for (int j = 0; j < size; ++j)
      for (int i = j; i < size; ++i) out.emplace_back(i == 7 ? hIndex : base + i, j == 7 ? hIndex : base + j, B(i, j));
  };
  int row = numDynamics();
  for (int k = 0; k < N; ++k) {
    Eigen::Matrix<double, 8, 8> B = Eigen::Matrix<double, 8, 8>::Zero();
    B(5, 5) = objFactor * 2.0 * ws * h;  // h sum u^T W u
    B(6, 6) = objFactor * 2.0 * wt * h;
    B(7, 5) = B(5, 7) = objFactor * 2.0 * ws * steerRate(x, k);  // d2/dh du: only read when h is free
    B(7, 6) = B(6, 7) = objFactor * 2.0 * wt * torque(x, k);
    const auto Hn = carNextHessian(spec_.car, spec_.alpha, h, node(x, k), steerRate(x, k), torque(x, k), spec_.freeTime);
    for (int i = 0; i < 5; ++i) B -= lambda[5 * k + i] * Hn[size_t(i)];
    if (k >= 1) B.topLeftCorner<3, 3>() += clearanceHessian(x, k, lambda, row);
    lower(7 * k, B, spec_.freeTime ? 8 : 7);
  }
  lower(7 * N, clearanceHessian(x, N, lambda, row), 3);
}

double CarDmoc::dynResidual(const Eigen::VectorXd& x, int k) const {
  const CarState next = carNext(spec_.car, spec_.alpha, stepSize(x), node(x, k), steerRate(x, k), torque(x, k));
  const CarState have = node(x, k + 1);
  return std::max({std::abs(have.g.theta - next.g.theta), std::abs(have.g.x - next.g.x), std::abs(have.g.y - next.g.y),
                   std::abs(have.sigma - next.sigma), std::abs(have.pMinus - next.pMinus)});
}

double CarDmoc::discClearance(const Eigen::VectorXd& x, int k) const {
  double best = kNlpInfinity;
  const Turn heading = Turn::of(x[7 * k]);
  for (size_t i = 0; i < spec_.obstacles.size(); ++i)
    best = std::min(best, boxClearance(x, k, heading, i, nullptr, nullptr));
  return best;
}

}  // namespace varsim
