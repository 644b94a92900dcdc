// engine/integrators/nonholonomic.cpp — seed 000 eqs. (16)-(17) solved by Newton (central-difference
// Jacobian, dense LU: the systems have shapeDim + b <= a handful of unknowns), and the explicit car and
// snakeboard updates of Sec. 5.2 (see the header for the equations).
#include "engine/integrators/nonholonomic.h"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <string>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {

namespace {

double infNorm(const Eigen::VectorXd& v) { return v.size() ? v.cwiseAbs().maxCoeff() : 0.0; }

template <class Vec>
void requireFinite(const Vec& v, const char* what) {
  if (!v.allFinite()) throw SimulationDiverged(std::string("nonholonomic step: ") + what + " is not finite");
}

}  // namespace

template <class Group>
struct NonholonomicIntegrator<Group>::Trial {
  Eigen::VectorXd residual, u, z, rA;
  Algebra xi, mu, CTmu;
  double magnitude = 0.0;  // size of the right momenta in the residual rows (for the relative tolerance)
};

template <class Group>
NonholonomicIntegrator<Group>::NonholonomicIntegrator(const Model& model, std::vector<bool> prescribed,
                                                      NonholonomicSettings settings)
    : model_(&model), prescribed_(std::move(prescribed)), settings_(settings) {
  if (int(prescribed_.size()) != model.shapeDim())
    throw BadInput("nonholonomic integrator: " + std::to_string(prescribed_.size()) +
                   " prescribed flags for a shape of dimension " + std::to_string(model.shapeDim()));
  if (!(settings_.alpha >= 0.0 && settings_.alpha <= 1.0))
    throw BadInput("nonholonomic integrator: alpha = " + formatNumber(settings_.alpha) + ": allowed range [0, 1]");
  if (!(settings_.newtonTolerance >= 1e-16 && settings_.newtonTolerance <= 1e-6))
    throw BadInput("nonholonomic integrator: newtonTolerance = " + formatNumber(settings_.newtonTolerance) +
                   ": allowed range [1e-16, 1e-6]");
  if (settings_.maxNewtonIterations < 1)
    throw BadInput("nonholonomic integrator: maxNewtonIterations = " + std::to_string(settings_.maxNewtonIterations) +
                   ": allowed range >= 1");
  for (int i = 0; i < model.shapeDim(); ++i)
    if (!prescribed_[size_t(i)]) forced_.push_back(i);
}

template <class Group>
typename Group::Algebra NonholonomicIntegrator<Group>::segmentVelocity(const Eigen::VectorXd& rA,
                                                                      const Eigen::VectorXd& u,
                                                                      const Eigen::VectorXd& z) const {
  Algebra xi = -(model_->connection(rA) * u);
  if (z.size()) xi += model_->symmetryBasis(rA) * z;
  return xi;
}

template <class Group>
typename NonholonomicIntegrator<Group>::State NonholonomicIntegrator<Group>::start(const Pose& g0,
                                                                                 const Eigen::VectorXd& r0,
                                                                                 const Eigen::VectorXd& rdot0,
                                                                                 const Eigen::VectorXd& z0) const {
  if (r0.size() != model_->shapeDim() || rdot0.size() != model_->shapeDim() || z0.size() != model_->symmetryDim())
    throw BadInput("nonholonomic integrator: start vectors have the wrong size");
  State s;
  s.g = g0;
  s.r = r0;
  s.u = rdot0;
  s.z = z0;
  s.xi = segmentVelocity(r0, rdot0, z0);
  s.nuMinus = model_->dLdxi(r0, rdot0, s.xi);
  s.piMinus = model_->dLdu(r0, rdot0, s.xi);
  return s;
}

template <class Group>
Eigen::VectorXd NonholonomicIntegrator<Group>::leftShapeMomentum(const State& s) const {
  return s.piMinus - model_->connection(s.r).transpose() * s.nuMinus;
}

template <class Group>
typename NonholonomicIntegrator<Group>::Trial NonholonomicIntegrator<Group>::evaluate(
    const State& s, double h, const Eigen::VectorXd& x, const Eigen::VectorXd& uPrescribed,
    const Eigen::VectorXd& force) const {
  const double a = settings_.alpha;
  const int nf = int(forced_.size()), b = model_->symmetryDim();
  Trial t;
  t.u = uPrescribed;
  for (int i = 0; i < nf; ++i) t.u[forced_[size_t(i)]] = x[i];
  t.z = x.tail(b);
  t.rA = shapeOnSegment(s.r, t.u, a * h);
  t.xi = segmentVelocity(t.rA, t.u, t.z);
  t.mu = model_->dLdxi(t.rA, t.u, t.xi);
  t.CTmu = Group::tangentInverse(settings_.tangent, h * t.xi).transpose() * t.mu;
  t.residual.resize(nf + b);
  if (b) {
    const auto Er = model_->symmetryBasis(s.r);
    t.residual.tail(b) = Er.transpose() * (t.CTmu - s.nuMinus);
    t.magnitude = infNorm(Er.transpose() * t.CTmu);
  }
  if (nf) {
    const auto Ar = model_->connection(s.r);
    const Eigen::VectorXd Pplus = model_->dLdu(t.rA, t.u, t.xi) - h * (1.0 - a) * model_->dLdr(t.rA, t.u, t.xi) -
                                  Ar.transpose() * t.CTmu - h * (1.0 - a) * force;
    const Eigen::VectorXd Pminus = s.piMinus - Ar.transpose() * s.nuMinus;
    for (int i = 0; i < nf; ++i) {
      t.residual[i] = Pplus[forced_[size_t(i)]] - Pminus[forced_[size_t(i)]];
      t.magnitude = std::max(t.magnitude, std::abs(Pplus[forced_[size_t(i)]]));
    }
  }
  return t;
}

template <class Group>
void NonholonomicIntegrator<Group>::step(State& s, double h, const Eigen::VectorXd& uPrescribed,
                                         const Eigen::VectorXd& forceIn) const {
  const int n = model_->shapeDim(), nf = int(forced_.size()), b = model_->symmetryDim(), m = nf + b;
  if (!(h > 0.0) || !std::isfinite(h)) throw BadInput("nonholonomic step: h = " + formatNumber(h) + ": allowed (0, inf)");
  if (uPrescribed.size() != n || forceIn.size() != n)
    throw BadInput("nonholonomic step: input vectors must have the shape dimension " + std::to_string(n));
  Eigen::VectorXd uPres = uPrescribed, force = Eigen::VectorXd::Zero(n);
  for (int i = 0; i < n; ++i) {
    if (prescribed_[size_t(i)]) continue;
    uPres[i] = 0.0;
    force[i] = forceIn[i];
  }
  requireFinite(uPres, "prescribed shape velocity");
  requireFinite(force, "shape force");

  // Predictor: the last segment's unknowns.
  Eigen::VectorXd x(m);
  for (int i = 0; i < nf; ++i) x[i] = s.u[forced_[size_t(i)]];
  x.tail(b) = s.z.size() == b ? s.z : Eigen::VectorXd(Eigen::VectorXd::Zero(b));

  // Momentum scale of the balance: the left momenta, the impulse of the step and the right momenta of
  // the current iterate (so that a start from rest with a moving shape still has a scale).
  double scale = h * infNorm(force);
  if (nf) scale = std::max(scale, infNorm(leftShapeMomentum(s)));
  if (b) scale = std::max(scale, infNorm(model_->symmetryBasis(s.r).transpose() * s.nuMinus));

  Trial t = evaluate(s, h, x, uPres, force);
  double res = infNorm(t.residual), resPrev = INFINITY;
  double tol = settings_.newtonTolerance * std::max(scale, t.magnitude);
  int it = 0;
  while (m > 0 && res > tol && res > 0.0) {
    // Round-off floor: the residual stopped decreasing near the tolerance.
    if (it >= 2 && res >= 0.5 * resPrev && res <= 1e3 * tol) break;
    if (it >= settings_.maxNewtonIterations)
      throw SimulationDiverged("nonholonomic step: Newton did not converge (momentum residual " + formatNumber(res) +
                               " after " + std::to_string(it) + " iterations)");
    Eigen::MatrixXd Jac(m, m);
    for (int j = 0; j < m; ++j) {
      const double d = 1e-6 * std::max(1.0, std::abs(x[j]));
      Eigen::VectorXd xp = x, xm = x;
      xp[j] += d;
      xm[j] -= d;
      Jac.col(j) = (evaluate(s, h, xp, uPres, force).residual - evaluate(s, h, xm, uPres, force).residual) / (2.0 * d);
    }
    const Eigen::VectorXd dx = Jac.partialPivLu().solve(-t.residual);
    requireFinite(dx, "Newton update");
    x += dx;
    t = evaluate(s, h, x, uPres, force);
    resPrev = res;
    res = infNorm(t.residual);
    tol = settings_.newtonTolerance * std::max(scale, t.magnitude);
    ++it;
  }
  requireFinite(t.xi, "body velocity xi");
  requireFinite(t.mu, "momentum mu");

  const double a = settings_.alpha;
  State next = s;
  next.g = s.g * Group::retract(settings_.retraction, h * t.xi);
  next.r = s.r + h * t.u;
  next.u = t.u;
  next.z = t.z;
  next.xi = t.xi;
  next.nuMinus = Group::tangentInverse(settings_.tangent, -h * t.xi).transpose() * t.mu;
  next.piMinus = model_->dLdu(t.rA, t.u, t.xi) + h * a * model_->dLdr(t.rA, t.u, t.xi) + h * a * force;
  next.newtonIterations = it;
  next.residual = res;
  requireFinite(next.r, "shape r");
  requireFinite(next.piMinus, "shape momentum");
  if (!std::isfinite(next.g.theta) || !std::isfinite(next.g.x) || !std::isfinite(next.g.y))
    throw SimulationDiverged("nonholonomic step: pose is not finite");
  s = std::move(next);
}

template class NonholonomicIntegrator<Se2Group>;

// ---- explicit car ---------------------------------------------------------------------------------

CarState carStart(const CarParams& p, const se2::Pose2& g0, double psi0, double sigma0, double psiDot0) {
  CarState s;
  s.g = g0;
  s.psi = psi0;
  s.sigma = sigma0;
  s.pMinus = p.momentumOfRate(psiDot0, sigma0);
  s.u = psiDot0;
  s.sigmaMid = sigma0;
  return s;
}

CarState carNext(const CarParams& p, double alpha, double h, const CarState& s, double steerRate, double torque) {
  const double I0 = p.I0(), c = p.c();
  const double sigmaMid = shapeOnSegment(s.sigma, steerRate, alpha * h);
  const double inertia = I0 + c * s.sigma * sigmaMid;
  if (!(inertia > 0.0))
    throw SimulationDiverged("car step: effective wheel inertia I0 + c sigma_k sigma_{k+alpha} = " +
                             formatNumber(inertia) + " is not positive");
  const double u = (s.pMinus + h * (1.0 - alpha) * torque) / inertia;
  const double omega = (p.rho / p.l) * sigmaMid * u, v = p.rho * u;
  const se2::Pose2 g = s.g * se2::exp(Vector3d(h * omega, h * v, 0.0));
  const double sigmaNext = s.sigma + h * steerRate;
  const double pMinus = (I0 + c * sigmaNext * sigmaMid) * u + h * alpha * torque;
  if (!std::isfinite(u) || !std::isfinite(pMinus) || !std::isfinite(g.x) || !std::isfinite(g.y) ||
      !std::isfinite(g.theta) || !std::isfinite(sigmaNext))
    throw SimulationDiverged("car step: wheel rate u = " + formatNumber(u) + " or pose is not finite");
  CarState next;
  next.g = g;
  next.psi = s.psi + h * u;
  next.sigma = sigmaNext;
  next.pMinus = pMinus;
  next.u = u;
  next.sigmaMid = sigmaMid;
  next.torque = torque;
  next.steerRate = steerRate;
  return next;
}

void carStep(const CarParams& p, double alpha, double h, CarState& s, double steerRate, double torque) {
  s = carNext(p, alpha, h, s, steerRate, torque);
}

// ---- explicit snakeboard --------------------------------------------------------------------------

SnakeboardState snakeboardStart(const se2::Pose2& g0, double psi0, double phi0, double p0) {
  SnakeboardState s;
  s.g = g0;
  s.psi = psi0;
  s.phi = phi0;
  s.p = p0;
  return s;
}

SnakeboardState snakeboardNext(const SnakeboardParams& p, double alpha, double h, const SnakeboardState& s,
                               double psiNext, double phiNext) {
  const double uPsi = (psiNext - s.psi) / h, uPhi = (phiNext - s.phi) / h;
  const double phiMid = shapeOnSegment(s.phi, uPhi, alpha * h);
  const Vector3d D = snakeboard::lockedInertia(p);
  const Vector3d eK = snakeboard::e1(p.l, s.phi), eMid = snakeboard::e1(p.l, phiMid);
  const double denom = eK.dot(D.cwiseProduct(eMid));
  if (!(denom > 1e-6 * p.m * p.l * p.l))
    throw SimulationDiverged("snakeboard step: e1(phi_k)^T D e1(phi_{k+alpha}) = " + formatNumber(denom) +
                             " (phi_k = " + formatNumber(s.phi) + ", phi_{k+alpha} = " + formatNumber(phiMid) +
                             "): steering at or across pi/2");
  const double zeta = (s.p - p.I * uPsi * eK[0]) / denom;
  const Vector3d xi = zeta * eMid;
  Vector3d mu = D.cwiseProduct(xi);
  mu[0] += p.I * uPsi;
  const se2::Pose2 g = s.g * se2::exp(h * xi);
  const double pNext = mu.dot(snakeboard::e1(p.l, phiNext));
  if (!std::isfinite(pNext) || !xi.allFinite() || !std::isfinite(g.x) || !std::isfinite(g.y) ||
      !std::isfinite(g.theta))
    throw SimulationDiverged("snakeboard step: momentum p = " + formatNumber(pNext) + " or pose is not finite");
  SnakeboardState next;
  next.g = g;
  next.psi = psiNext;
  next.phi = phiNext;
  next.p = pNext;
  next.uPsi = uPsi;
  next.uPhi = uPhi;
  next.zeta = zeta;
  next.xi = xi;
  return next;
}

void snakeboardStep(const SnakeboardParams& p, double alpha, double h, SnakeboardState& s, double psiNext,
                    double phiNext) {
  s = snakeboardNext(p, alpha, h, s, psiNext, phiNext);
}

}  // namespace varsim
