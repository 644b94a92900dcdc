// engine/integrators/floating_base.cpp — the SE(3) x R^m variational integrator of seed 002 eqs. (62)-(64)
// (Newton with the analytic Jacobian) and the explicit Euler / RK4 baselines on eqs. (48)-(49).
#include "engine/integrators/floating_base.h"

#include <Eigen/LU>
#include <cmath>

#include "engine/sim/errors.h"

namespace varsim::floating {

namespace {

// S(h xi)^T y of eq. (60): the Cayley tangent inverse acts on the group rows only.
VectorXd applySt(const Vector6d& hxi, const VectorXd& y) {
  VectorXd out = y;
  out.head<6>() = se3::Ccay(hxi).transpose() * y.head<6>();
  return out;
}

}  // namespace

std::string schemeName(FloatingScheme s) {
  return s == FloatingScheme::Lgvi ? "lgvi" : s == FloatingScheme::Euler ? "euler" : "rk4";
}

FloatingStepper::FloatingStepper(const FloatingChain& chain, FloatingOptions options)
    : chain_(chain), options_(options) {
  if (!(options_.newtonTolerance >= 1e-16 && options_.newtonTolerance <= 1e-6))
    throw BadInput("floating stepper: newton tolerance outside [1e-16, 1e-6]");
  if (options_.maxNewtonIterations < 1) throw BadInput("floating stepper: max Newton iterations must be >= 1");
}

void FloatingStepper::checkForces(const FloatingForces& f) const {
  if (f.jointTorque.size() != 0 && f.jointTorque.size() != chain_.joints())
    throw BadInput("floating stepper: " + std::to_string(f.jointTorque.size()) + " joint torques for " +
                   std::to_string(chain_.joints()) + " joints");
  if (!f.baseWrench.allFinite() || !f.jointTorque.allFinite() || !f.gravity.allFinite())
    throw BadInput("floating stepper: forces must be finite");
}

VectorXd FloatingStepper::generalizedForce(const FloatingForces& f) const {
  VectorXd out = VectorXd::Zero(chain_.dof());
  out.head<6>() = f.baseWrench;
  if (f.jointTorque.size()) out.tail(chain_.joints()) = f.jointTorque;
  return out;
}

void FloatingStepper::initialize(const se3::Pose& g0, const VectorXd& r0, const VectorXd& v0, double h,
                                 const FloatingForces& f) {
  if (!(h > 0 && std::isfinite(h))) throw BadInput("floating stepper: step h must be > 0");
  if (r0.size() != chain_.joints() || v0.size() != chain_.dof() || !r0.allFinite() || !v0.allFinite())
    throw BadInput("floating stepper: initial r/v of wrong size or not finite");
  checkForces(f);
  g_ = g0, gWorld_ = g0, r_ = r0, v_ = v0, h_ = h, tAnchor_ = 0.0, steps_ = 0, iterations_ = 0, substeps_ = 1;
  s_.setZero(), sdot_.setZero();
  if (options_.lockJoints) v_.tail(chain_.joints()).setZero();
  chain_.massMatrixAndGradient(r_, M_, dM_);
  P_ = M_ * v_;  // the continuous momentum at t_0 (ERRATA "initialization": no first-order xi_{-1} start)
  vSeg_ = v_;
  initialized_ = true;
}

void FloatingStepper::setStepSize(double h) {
  if (!(h > 0 && std::isfinite(h))) throw BadInput("floating stepper: step h must be > 0");
  if (h == h_) return;
  tAnchor_ = time(), steps_ = 0, h_ = h;
}

VectorXd FloatingStepper::residual(const VectorXd& v, const FloatingForces& f, MatrixXd* jacobian) const {
  return residual(v, f, h_, jacobian);
}

VectorXd FloatingStepper::residual(const VectorXd& v, const FloatingForces& f, double h, MatrixXd* jacobian) const {
  const int m = chain_.joints();
  const Vector6d hxi = h * v.head<6>();
  MatrixXd M1;
  std::vector<MatrixXd> dM1;
  chain_.massMatrixAndGradient(r_ + h * v.tail(m), M1, dM1);
  const MatrixXd W = 0.5 * (M_ + M1);
  const VectorXd fq = generalizedForce(f);
  const VectorXd y = W * v - 0.5 * h * fq;
  VectorXd e = applySt(hxi, y) - P_;
  e.tail(m) -= 0.25 * h * quadraticGradient(dM_, v);
  if (jacobian) {
    MatrixXd& Jm = *jacobian;
    Jm = W;  // d(W v)/dv, plus the dependence of M(r_k + h dr) on dr:
    Jm.rightCols(m) += 0.5 * h * contractGradient(dM1, v);
    Jm.topRows<6>() = se3::Ccay(hxi).transpose() * Jm.topRows<6>();
    Jm.topLeftCorner<6, 6>() += h * se3::dCTmu(Tangent::Cay, hxi, y.head<6>());
    Jm.bottomRows(m) -= 0.5 * h * contractGradient(dM_, v).transpose();
  }
  return e;
}

void FloatingStepper::step(const FloatingForces& f) {
  if (!initialized_) throw BadInput("floating stepper: step before initialize");
  checkForces(f);
  if (options_.scheme == FloatingScheme::Lgvi)
    stepLgvi(f);
  else
    stepExplicit(f);
  ++steps_;
}

bool FloatingStepper::advanceLgvi(const FloatingForces& f, double h) {
  const int n = chain_.dof(), m = chain_.joints();
  const int k = options_.lockJoints ? 6 : n;  // unknowns (locked: xi only)
  const VectorXd fq = generalizedForce(f);
  const double scale = P_.norm() + 0.5 * h * fq.norm();
  // Explicit predictor: the node velocity pushed half a step by the forces.
  VectorXd v = VectorXd::Zero(n);
  v.head(k) = M_.topLeftCorner(k, k).ldlt().solve((P_ + 0.5 * h * fq).head(k));
  int it = 0;
  bool converged = scale == 0.0;
  MatrixXd Jm, Jt;
  VectorXd e = residual(v, f, h, &Jm);
  double norm = e.head(k).norm();
  for (; !converged && std::isfinite(norm) && it < options_.maxNewtonIterations; ++it) {
    if (norm <= options_.newtonTolerance * scale) {
      converged = true;
      break;
    }
    const VectorXd dv = Jm.topLeftCorner(k, k).partialPivLu().solve(e.head(k));
    if (norm <= 0.1 * std::sqrt(options_.newtonTolerance) * scale) {
      v.head(k) -= dv, converged = true, ++it;
      break;
    }
    // Backtracking on |e| (halving up to 2^-12): large h|omega| or h|rdot| start outside Newton's basin.
    bool accepted = false;
    for (double alpha = 1.0; !accepted && alpha > 1e-4; alpha *= 0.5) {
      VectorXd vt = v;
      vt.head(k) -= alpha * dv;
      const VectorXd et = residual(vt, f, h, &Jt);
      const double nt = et.head(k).norm();
      if (std::isfinite(nt) && nt < norm) v = vt, e = et, Jm = Jt, norm = nt, accepted = true;
    }
    if (!accepted) break;
  }
  iterations_ = it;
  if (!converged || !v.allFinite()) return false;
  // Commit: g_{k+1} = g_k cay(h xi) (eq. 62), r_{k+1} = r_k + h dr (eq. 63), and the next node momentum.
  const Vector6d hxi = h * v.head<6>();
  const se3::Pose g1 = g_ * se3::cay(hxi);
  const VectorXd r1 = r_ + h * v.tail(m);
  MatrixXd M1;
  std::vector<MatrixXd> dM1;
  chain_.massMatrixAndGradient(r1, M1, dM1);
  const VectorXd y = 0.5 * (M_ + M1) * v + 0.5 * h * fq;
  VectorXd P1 = applySt(-hxi, y);
  P1.tail(m) += 0.25 * h * quadraticGradient(dM1, v);
  if (!P1.allFinite()) return false;
  g_ = g1, r_ = r1, P_ = P1, M_ = M1, dM_ = dM1, vSeg_ = v;
  // The free-falling frame, exact for gravity constant over the step.
  s_ += h * sdot_ + 0.5 * h * h * f.gravity, sdot_ += h * f.gravity;
  gWorld_ = se3::Pose{g_.R, g_.x + s_};
  return true;
}

void FloatingStepper::stepLgvi(const FloatingForces& f) {
  if (advanceLgvi(f, h_)) return void(substeps_ = 1);
  // Fallback, as LgviSe3::stepInSubsteps (helicopter): at large h|omega| or h|rdot| (|omega| = 17 rad/s or a 10-joint
  // arm at h = 0.1) the predictor starts outside Newton's basin. The same interval in 2^j equal substeps (exact in
  // binary, so t advances by exactly h), j = 1..10, each a plain step of this scheme with the forces held: every
  // substep conserves the momentum map (65) exactly, so the step does too. Deterministic; costs nothing unless a step
  // fails, and the plain path is untouched.
  const std::vector<double> saved = saveState();
  for (int j = 1; j <= kMaxSubstepLevel; ++j) {
    const int n = 1 << j;
    int iterations = 0;
    bool ok = true;
    for (int i = 0; i < n && ok; ++i) ok = advanceLgvi(f, h_ / n), iterations += iterations_;
    if (ok) return void((iterations_ = iterations, substeps_ = n));
    loadState(saved);
  }
  throw SimulationDiverged("floating LGVI: Newton did not converge at t = " + std::to_string(time()) + " (h = " +
                           std::to_string(h_) + ", also in " + std::to_string(1 << kMaxSubstepLevel) + " substeps)");
}

VectorXd FloatingStepper::acceleration(const se3::Pose& g, const VectorXd& r, const VectorXd& v,
                                       const FloatingForces& f) const {
  const int m = chain_.joints();
  MatrixXd M;
  std::vector<MatrixXd> dM;
  chain_.massMatrixAndGradient(r, M, dM);
  const VectorXd mu = M * v;
  // d/dt (M v) = [ad_xi^T mu; 1/2 (I (x) v^T) grad M v] - grad V + f   (eqs. 48-49, ERRATA: no dots in 48)
  VectorXd rhs = generalizedForce(f) - chain_.potentialGradient(g, r, f.gravity);
  rhs.head<6>() += se3::adStar(v.head<6>()) * mu.head<6>();
  rhs.tail(m) += 0.5 * quadraticGradient(dM, v);
  rhs -= contractGradient(dM, v) * v.tail(m);  // M_dot v
  return M.ldlt().solve(rhs);
}

void FloatingStepper::stepExplicit(const FloatingForces& f) {
  const int m = chain_.joints();
  se3::Pose g1;
  VectorXd r1, v1;
  if (options_.scheme == FloatingScheme::Euler) {
    const VectorXd a = acceleration(g_, r_, v_, f);
    g1 = g_ * se3::exp(h_ * v_.head<6>()), r1 = r_ + h_ * v_.tail(m), v1 = v_ + h_ * a;
  } else {
    // RKMK4: g = g_k exp(theta), theta_dot = dexp^-1_{-theta} xi (right-trivialized, lie_types.h).
    struct Rate {
      Vector6d theta;
      VectorXd r, v;
    };
    auto rate = [&](const Vector6d& th, const VectorXd& r, const VectorXd& v) {
      return Rate{se3::Cexp(-th) * v.head<6>(), v.tail(m), acceleration(g_ * se3::exp(th), r, v, f)};
    };
    const Vector6d z = Vector6d::Zero();
    const Rate k1 = rate(z, r_, v_);
    const Rate k2 = rate(0.5 * h_ * k1.theta, r_ + 0.5 * h_ * k1.r, v_ + 0.5 * h_ * k1.v);
    const Rate k3 = rate(0.5 * h_ * k2.theta, r_ + 0.5 * h_ * k2.r, v_ + 0.5 * h_ * k2.v);
    const Rate k4 = rate(h_ * k3.theta, r_ + h_ * k3.r, v_ + h_ * k3.v);
    const double s = h_ / 6.0;
    g1 = g_ * se3::exp(s * (k1.theta + 2 * k2.theta + 2 * k3.theta + k4.theta));
    r1 = r_ + s * (k1.r + 2 * k2.r + 2 * k3.r + k4.r);
    v1 = v_ + s * (k1.v + 2 * k2.v + 2 * k3.v + k4.v);
  }
  if (!v1.allFinite() || !r1.allFinite() || !g1.x.allFinite())
    throw SimulationDiverged("floating " + schemeName(options_.scheme) +
                             ": non-finite state at t = " + std::to_string(time()));
  g_ = g1, gWorld_ = g1, r_ = r1, v_ = v1, vSeg_ = v1, iterations_ = 0, substeps_ = 1;
}

VectorXd FloatingStepper::velocity() const {
  if (options_.scheme != FloatingScheme::Lgvi) return v_;
  const VectorXd P = nodeMomentum();
  if (!options_.lockJoints) return M_.ldlt().solve(P);
  VectorXd v = VectorXd::Zero(chain_.dof());
  v.head<6>() = M_.topLeftCorner<6, 6>().ldlt().solve(P.head<6>());
  return v;
}

VectorXd FloatingStepper::nodeMomentum() const {
  if (options_.scheme != FloatingScheme::Lgvi) return chain_.massMatrix(r_) * v_;
  // World momentum: the free-fall velocity s_dot adds R^T s_dot to the base's body linear velocity.
  VectorXd boost = VectorXd::Zero(chain_.dof());
  boost.segment<3>(3) = g_.R.transpose() * sdot_;
  return P_ + M_ * boost;
}

Vector6d FloatingStepper::momentumMap() const { return FloatingChain::spatialMomentum(gWorld_, nodeMomentum()); }

double FloatingStepper::energy(const Vector3d& gravity) const {
  const VectorXd v = velocity();
  return 0.5 * v.dot(chain_.massMatrix(r_) * v) + chain_.potential(gWorld_, r_, gravity);
}

std::vector<double> FloatingStepper::saveState() const {
  std::vector<double> s(g_.R.data(), g_.R.data() + 9);
  s.insert(s.end(), g_.x.data(), g_.x.data() + 3);
  for (const VectorXd* x : {&r_, &P_, &v_, &vSeg_}) s.insert(s.end(), x->data(), x->data() + x->size());
  s.insert(s.end(), s_.data(), s_.data() + 3);
  s.insert(s.end(), sdot_.data(), sdot_.data() + 3);
  s.insert(s.end(), {h_, tAnchor_, double(steps_), double(iterations_), double(substeps_)});
  return s;
}

void FloatingStepper::loadState(const std::vector<double>& s) {
  const int n = chain_.dof(), m = chain_.joints();
  const size_t need = 12 + m + 3 * n + 6 + 5;
  if (s.size() != need)
    throw BadInput("floating stepper state: " + std::to_string(s.size()) + " numbers, need " + std::to_string(need));
  for (double x : s)
    if (!std::isfinite(x)) throw BadInput("floating stepper state: non-finite entry");
  if (!(s[need - 5] > 0)) throw BadInput("floating stepper state: h must be > 0");
  if (!(s[need - 3] >= 0 && s[need - 3] <= 1e15) || !(s[need - 2] >= 0 && s[need - 2] <= 1e6) ||
      !(s[need - 1] >= 1 && s[need - 1] <= double(1 << kMaxSubstepLevel)))
    throw BadInput("floating stepper state: step count outside [0, 1e15], Newton count outside [0, 1e6] or substeps "
                   "outside [1, " + std::to_string(1 << kMaxSubstepLevel) + "]");
  const double* p = s.data();
  g_.R = Eigen::Map<const Matrix3d>(p), g_.x = Eigen::Map<const Vector3d>(p + 9), p += 12;
  r_ = Eigen::Map<const VectorXd>(p, m), p += m;
  P_ = Eigen::Map<const VectorXd>(p, n), p += n;
  v_ = Eigen::Map<const VectorXd>(p, n), p += n;
  vSeg_ = Eigen::Map<const VectorXd>(p, n), p += n;
  s_ = Eigen::Map<const Vector3d>(p), sdot_ = Eigen::Map<const Vector3d>(p + 3), p += 6;
  gWorld_ = se3::Pose{g_.R, g_.x + s_};
  h_ = p[0], tAnchor_ = p[1], steps_ = long(p[2]), iterations_ = int(p[3]), substeps_ = int(p[4]);
  chain_.massMatrixAndGradient(r_, M_, dM_);
  initialized_ = true;
}

}  // namespace varsim::floating
