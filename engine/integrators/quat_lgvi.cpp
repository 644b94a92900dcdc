// engine/integrators/quat_lgvi.cpp — seed 004 eq. (23) stepped as in Sec. 4 (see the header for the scheme). The
// translational lines use the midpoint momentum pbar = p0 - (h/2) dV/dx(x0) = m (x1 - x0)/h directly: algebraically eq.
// (23), but without the cancellation of x1 - x0 (|x| >> |x1 - x0| on an orbit), which would otherwise cost ~1e-13 of
// the momentum per step.
#include "engine/integrators/quat_lgvi.h"

#include <Eigen/LU>
#include <cmath>
#include <string>
#include <utility>

#include "engine/lie/so3.h"
#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {

Matrix3d quatG(const quat::Quat& q) { return q[0] * Matrix3d::Identity() - so3::hat(q.tail<3>()); }

Eigen::Matrix<double, 3, 4> quatF(const quat::Quat& q) {
  Eigen::Matrix<double, 3, 4> F;
  F.col(0) = -q.tail<3>();
  F.rightCols<3>() = quatG(q);
  return F;
}

QuatLgvi::QuatLgvi(RigidBodyInertia inertia, std::shared_ptr<const RigidPotential> potential, QuatLgviOptions options)
    : inertia_(std::move(inertia)), potential_(std::move(potential)), options_(options) {
  validateInertia(inertia_);
  if (!potential_) throw BadInput("quat_lgvi: no potential given");
  if (!(options_.newtonTolerance >= 1e-16 && options_.newtonTolerance <= 1e-6))
    throw BadInput("quat_lgvi: newtonTolerance = " + formatNumber(options_.newtonTolerance) +
                   ": allowed [1e-16, 1e-6]");
  if (options_.maxNewtonIterations < 1)
    throw BadInput("quat_lgvi: maxNewtonIterations = " + std::to_string(options_.maxNewtonIterations) +
                   ": allowed >= 1");
  Jinv_ = inertia_.J.inverse();
}

void QuatLgvi::initialize(const Vector3d& x0, const quat::Quat& q0, const Vector3d& xdot0, const Vector3d& omega0,
                          double t0) {
  if (!std::isfinite(t0)) throw BadInput("quat_lgvi: initial time not finite");
  s_ = quatRigidStateFrom(inertia_, x0, q0, xdot0, omega0);
  grad_ = potential_->gradient(s_.x, rotation());
  v_.setZero();
  qLo_.setZero();
  clock_.reset(t0, 0.0);
  newtonIterations_ = 0;
  initialized_ = true;
}

bool QuatLgvi::solveRotation(double h, const Vector3d& b, Vector3d& v, int& iterations) const {
  const Matrix3d& J = inertia_.J;
  const Vector3d c = (0.25 * h) * b;  // s J v + v x J v = c  (G(f*) = s I + v^)
  const double scale = c.norm();
  iterations = 0;
  if (scale == 0.0) return v.setZero(), true;
  Vector3d u = Jinv_ * c;  // first-order predictor (s = 1, no gyroscopic term)
  if (u.norm() >= 1.0) u *= 0.5 / u.norm();
  const double accept = 0.1 * std::sqrt(options_.newtonTolerance) * scale;
  double previous = INFINITY;
  for (;;) {
    const double s = std::sqrt(1.0 - u.squaredNorm());
    const Vector3d Ju = J * u;
    const Vector3d r = s * Ju + u.cross(Ju) - c;
    const double rn = r.norm();
    if (!std::isfinite(rn)) return false;
    if (rn <= options_.newtonTolerance * scale) break;
    if (rn >= previous && rn <= 1e-10 * scale) break;  // stalled at the round-off floor
    if (iterations == options_.maxNewtonIterations) return false;
    const Matrix3d jac = s * J - Ju * (u.transpose() / s) + so3::hat(u) * J - so3::hat(Ju);
    const Vector3d d = jac.partialPivLu().solve(r);
    Vector3d next = u - d;
    for (int halve = 0; next.squaredNorm() >= 1.0; ++halve) {  // stay inside the unit ball (s > 0)
      if (halve == 60) return false;
      next = u - std::ldexp(1.0, -halve - 1) * d;
    }
    ++iterations;
    u = next;
    previous = rn;
    if (rn <= accept) break;  // quadratic convergence: the next residual is at the round-off floor
  }
  if (!u.allFinite()) return false;
  v = u;
  return true;
}

void QuatLgvi::step(double h) {
  if (!initialized_) throw BadInput("quat_lgvi: step called before initialize");
  if (!(h > 0.0 && std::isfinite(h)))
    throw BadInput("quat_lgvi: step size h = " + formatNumber(h) + ": allowed (0, inf) s");
  const double m = inertia_.mass;
  const long k = clock_.steps + 1;
  // Lines 1-2 of (23) at node 0: the midpoint momentum and the rotational "impulse" b.
  const Vector3d pbar = s_.p - (0.5 * h) * grad_.dVdx;
  const Vector3d b = s_.w - (0.5 * h) * grad_.FdVdq;
  Vector3d v;
  int iterations = 0;
  if (!solveRotation(h, b, v, iterations))
    throw SimulationDiverged(
        "quat_lgvi: Newton for Im(q_k* q_k+1) failed at step " + std::to_string(k) +
        " (t = " + formatNumber(time() + h) + "; h |Omega| = " + formatNumber(h * omega().norm()) +
        " rad; the momentum (4/h) G(f*) J v of eq. (23) is largest at a rotation of pi/2 per step, so "
        "there is no solution once h |Omega| is about 1 or more)");
  const double sv = std::sqrt(1.0 - v.squaredNorm());
  const quat::Quat f(sv, v.x(), v.y(), v.z());
  QuatRigidState next;
  next.x = s_.x + (h / m) * pbar;
  // q1 = q0 f as q0 + q0 (f - 1), summed with the round-off of the addition carried in qLo_ (two-sum): the product
  // itself, not a normalisation. Plain products let |q| - 1 random-walk (2.9e-14 after 1.25e5 steps).
  const quat::Quat fm1(-v.squaredNorm() / (1.0 + sv), v.x(), v.y(),
                       v.z());  // f - 1 without cancellation
  const quat::Quat delta = quat::multiply(s_.q, fm1) + (quat::multiply(qLo_, fm1) + qLo_);
  quat::Quat lo;
  for (int i = 0; i < 4; ++i) {  // Knuth two-sum: next.q[i] + lo[i] == s_.q[i] + delta[i] exactly
    next.q[i] = s_.q[i] + delta[i];
    const double bb = next.q[i] - s_.q[i];
    lo[i] = (s_.q[i] - (next.q[i] - bb)) + (delta[i] - bb);
  }
  const PotentialGradient g1 = potential_->gradient(next.x, quat::toRotation(next.q));
  // Lines 3-4 of (23) at node 1.
  next.p = pbar - (0.5 * h) * g1.dVdx;
  next.w = (4.0 / h) * (quatG(f) * (inertia_.J * v)) - (0.5 * h) * g1.FdVdq;
  if (!next.x.allFinite() || !next.q.allFinite() || !next.p.allFinite() || !next.w.allFinite() ||
      !g1.dVdx.allFinite() || !g1.FdVdq.allFinite())
    throw SimulationDiverged("quat_lgvi: state became non-finite at step " + std::to_string(k) +
                             " (t = " + formatNumber(time() + h) + ")");
  s_ = next;
  qLo_ = lo;
  grad_ = g1;
  v_ = v;
  newtonIterations_ = iterations;
  clock_.advance(h);
}

Vector3d QuatLgvi::omega() const { return quatRigidOmega(inertia_, s_); }

double QuatLgvi::kineticEnergy() const { return quatRigidKineticEnergy(inertia_, s_); }

double QuatLgvi::potentialEnergy() const { return potential_->value(s_.x, rotation()); }

Vector3d QuatLgvi::angularMomentum() const { return quatRigidAngularMomentum(s_); }

std::vector<double> QuatLgvi::saveState() const {
  std::vector<double> out;
  appendQuatRigidState(s_, out);
  out.insert(out.end(), v_.data(), v_.data() + 3);
  out.insert(out.end(), qLo_.data(), qLo_.data() + 4);
  clock_.save(out);
  out.push_back(double(newtonIterations_));
  return out;
}

void QuatLgvi::loadState(const std::vector<double>& state) {
  checkSavedState(state, 24, "quat_lgvi state");
  const double* d = state.data();
  const QuatRigidState s = quatRigidStateFromNumbers(d);
  if (!(std::abs(s.q.norm() - 1.0) < 1e-6))
    throw BadInput("quat_lgvi state: |q| = " + formatNumber(s.q.norm()) + ", not 1");
  const quat::Quat lo(d[16], d[17], d[18], d[19]);
  if (!(lo.norm() < 1e-12))
    throw BadInput("quat_lgvi state: quaternion round-off part " + formatNumber(lo.norm()) + " > 1e-12");
  if (!(d[22] > 0.0 || (d[21] == 0.0 && d[22] == 0.0)) || d[21] < 0.0 || d[21] > 1e15 || d[23] < 0.0 || d[23] > 1e6)
    throw BadInput("quat_lgvi state: step count, h or Newton count out of range");
  s_ = s;
  v_ = Vector3d(d[13], d[14], d[15]);
  qLo_ = lo;
  clock_.load(d + 20);
  newtonIterations_ = int(d[23]);
  grad_ = potential_->gradient(s_.x, rotation());
  initialized_ = true;
}

}  // namespace varsim
