// engine/integrators/lgvi_se3.cpp — Newton solve of seed 000 eq. (10) with analytic Jacobians, pose update
// eq. (9), discrete-Legendre start and h changes (ERRATA). The inner loop is allocation-free: fixed-size
// Eigen types, the residual/Jacobian are lambdas inlined into a templated Newton loop (no std::function).
#include "engine/integrators/lgvi_se3.h"

#include <Eigen/LU>
#include <cmath>
#include <limits>
#include <string>

#include "engine/lie/so3.h"
#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {

namespace {

// ad_xi^T mu = (-w x m - v x p; -w x p) for xi = (w, v), mu = (m, p) (lie_types.h ad).
Vector6d adT(const Vector6d& xi, const Vector6d& mu) {
  const Vector3d w = xi.head<3>(), v = xi.tail<3>(), m = mu.head<3>(), p = mu.tail<3>();
  Vector6d r;
  r << -w.cross(m) - v.cross(p), -w.cross(p);
  return r;
}

// hat(w) inlined here: the Newton loop calls it several times per iteration and so3::hat lives in
// another translation unit (not inlinable without LTO).
inline Matrix3d skew(const Vector3d& w) {
  Matrix3d W;
  W << 0.0, -w.z(), w.y(), w.z(), 0.0, -w.x(), -w.y(), w.x(), 0.0;
  return W;
}

// C_SO3(w)^T as a matrix: I + w^/2 + (Cay) w w^T/4 | (Exp) K w^2 | (ExpTrunc) w^2/12 | (Tln) nothing.
Matrix3d so3CT(Tangent c, const Vector3d& w) {
  const Matrix3d W = skew(w);
  Matrix3d CT = 0.5 * W;
  CT.diagonal().array() += 1.0;
  switch (c) {
    case Tangent::Cay: CT.noalias() += 0.25 * w * w.transpose(); break;
    case Tangent::Exp: CT.noalias() += so3::coeff::K(w.squaredNorm()) * (W * W); break;
    case Tangent::ExpTrunc: CT.noalias() += (1.0 / 12.0) * (W * W); break;
    case Tangent::Tln: break;
  }
  return CT;
}

// (I + a w^)^{-1} = (I - a w^ + a^2 w w^T)/(1 + a^2 |w|^2): solves the linear rows D(h w)^T m v = b_v of
// eq. (10) on SE(3) for C = Cay and Tln, with a = h/2 (D = I - h w^/2, the C_cay/C_TLN diagonal block).
Matrix3d inverseOfIdentityPlusHat(double a, const Vector3d& w) {
  const double d = 1.0 / (1.0 + a * a * w.squaredNorm());
  Matrix3d M = (a * a * d) * (w * w.transpose()) - (a * d) * skew(w);
  M.diagonal().array() += d;
  return M;
}

using NewtonOutcome = LgviNewtonOutcome;

// Newton on r(x) = 0 with analytic Jacobian. Stops when |r| <= tol |b| or when the residual stalls
// (|r| <= 1e-12 |b| and no longer halving). At the iteration cap it still counts as converged if |r| is
// at the round-off floor of its evaluation, 4 eps termScale(x) (the size of the terms that cancel in r;
// it exceeds |b| when h|xi| is large, e.g. the SE(3) Cayley coupling (h/2) v x b_lin of a body falling
// at 10^4 m/s): not converging below round-off is no divergence.
// Accept without a final evaluation: in the quadratic regime the residual after an update from r is
// ~|r|^2/|b|; if that is below tol/100 (r <= 1e-8 |b| at the default tol) the update is accepted
// unevaluated. Full Newton steps (no Jacobian reuse) land at round-off, which is what keeps the matched
// pairs' momentum (and C_TLN's energy) conserved over 10^5 steps; a chord variant measured 1.1-1.3x
// RK4 instead of 1.4x but left 1e-15 residuals (momentum drift 1e-11 over 10^4 steps).
template <int N, class Residual, class Jacobian, class TermScale>
NewtonOutcome newton(Eigen::Matrix<double, N, 1>& x, double bNorm, const LgviOptions& opt, const Residual& residual,
                     const Jacobian& jacobian, const TermScale& termScale) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  NewtonOutcome out;
  double rPrev = std::numeric_limits<double>::infinity();
  for (int it = 0;; ++it) {
    const Eigen::Matrix<double, N, 1> r = residual(x);
    const double rn = r.norm();
    out.iterations = it;
    out.relativeResidual = bNorm > 0.0 ? rn / bNorm : rn;
    if (!std::isfinite(rn)) return out;
    if (rn <= opt.newtonTolerance * bNorm || (it > 0 && rn <= 1e-12 * bNorm && rn > 0.5 * rPrev)) {
      out.converged = true;
      return out;
    }
    if (it >= opt.maxNewtonIterations) {
      out.converged = rn <= 1e-10 * bNorm && rn <= 4.0 * eps * termScale(x);
      return out;
    }
    if constexpr (N == 3) x -= jacobian(x).inverse() * r;  // closed-form cofactors: cheapest for 3x3
    else x -= jacobian(x).partialPivLu().solve(r);
    if (rn * rn <= 0.01 * opt.newtonTolerance * bNorm * bNorm) {
      out.iterations = it + 1;
      out.converged = x.allFinite();
      return out;
    }
    rPrev = rn;
  }
}

std::string num(double v) { return formatNumber(v); }

void validateOptions(const LgviOptions& o) {
  if (!(o.newtonTolerance >= 1e-16 && o.newtonTolerance <= 1e-6))
    throw BadInput("LGVI newtonTolerance = " + num(o.newtonTolerance) + ": allowed range [1e-16, 1e-6]");
  if (o.maxNewtonIterations < 1)
    throw BadInput("LGVI maxNewtonIterations = " + std::to_string(o.maxNewtonIterations) + ": allowed >= 1");
}

// The rotational rows of eq. (10) with the translation eliminated (SO(3)xR3 always; SE(3) for C = Cay, Tln):
//   r(w) = C_SO3(h w)^T J w + [coupled] (h/2) v(w) x b_lin - b_ang,   v(w) = (I + (h/2) w^)^{-1} u,
// u = b_lin/m (coupled = SE(3) with C_cay: the term (h/2) v x (D^T m v) of the C_cay translation block).
// residual() keeps its intermediate values for the jacobian() call that follows it at the same w.
struct RotationProblem {
  Tangent c;
  double h;
  const Matrix3d& J;
  Vector3d bAng, bLin, u;
  bool coupled;
  bool diagonalJ = J.isDiagonal(0.0);  // principal axes (the usual case): J products as scalings
  Vector3d hw = Vector3d::Zero(), Jw = Vector3d::Zero(), v = Vector3d::Zero();
  Matrix3d Minv = Matrix3d::Identity();

  Vector3d residual(const Vector3d& w) {
    hw = h * w;
    if (diagonalJ) Jw = J.diagonal().cwiseProduct(w);
    else Jw = J * w;
    Vector3d r = so3CTmu(c, hw, Jw) - bAng;
    if (coupled) {
      Minv = inverseOfIdentityPlusHat(0.5 * h, w);
      v = Minv * u;
      r += (0.5 * h) * v.cross(bLin);
    }
    return r;
  }
  Matrix3d jacobian() const {  // at the w of the last residual() call
    // C(h w)^T J + h d[C(w')^T m]/dw' at (w' = h w, m = J w). For Cay and Tln both parts are written out
    // together: (I + w'^/2 [+ w' w'^T/4]) J + h (-m^/2 [+ ((w'.m) I + w' m^T)/4])  (= so3CT, so3CTmuJacobian).
    Matrix3d Jr;
    if (c == Tangent::Cay || c == Tangent::Tln) {
      const Matrix3d W = skew(hw);
      Matrix3d CT = 0.5 * W;
      Jr = (-0.5 * h) * skew(Jw);
      if (c == Tangent::Cay) {
        CT.noalias() += 0.25 * hw * hw.transpose();
        Jr.noalias() += (0.25 * h) * hw * Jw.transpose();
        Jr.diagonal().array() += 0.25 * h * hw.dot(Jw);
      }
      CT.diagonal().array() += 1.0;
      if (diagonalJ) Jr.noalias() += CT * J.diagonal().asDiagonal();
      else Jr.noalias() += CT * J;
    } else {
      if (diagonalJ) Jr = so3CT(c, hw) * J.diagonal().asDiagonal();
      else Jr = so3CT(c, hw) * J;
      Jr.noalias() += h * so3CTmuJacobian(c, hw, Jw);
    }
    // d[(h/2) v x b_lin]/dw = -(h/2) b_lin^ dv/dw,  dv/dw = (h/2) (I + (h/2) w^)^{-1} v^
    if (coupled) Jr.noalias() -= (0.25 * h * h) * skew(bLin) * (Minv * skew(v));
    return Jr;
  }
  double termScale(const Vector3d& w) const {  // size of the terms that cancel in r (round-off floor)
    const double wn = h * w.norm(), mn = (J * w).norm();
    return bAng.norm() + mn * (1.0 + wn / 2 + wn * wn / 4) + (coupled ? 0.5 * h * v.norm() * bLin.norm() : 0.0);
  }
};

NewtonOutcome solveRotation(Vector3d& w, RotationProblem& p, double bNorm, const LgviOptions& opt) {
  return newton<3>(
      w, bNorm, opt, [&](const Vector3d& x) { return p.residual(x); }, [&](const Vector3d&) { return p.jacobian(); },
      [&](const Vector3d& x) { return p.termScale(x); });
}

}  // namespace

Vector3d so3CTmu(Tangent c, const Vector3d& w, const Vector3d& m) {
  const Vector3d wm = w.cross(m);
  switch (c) {
    case Tangent::Cay: return m + 0.5 * wm + 0.25 * w.dot(m) * w;
    case Tangent::Exp: return m + 0.5 * wm + so3::coeff::K(w.squaredNorm()) * w.cross(wm);
    case Tangent::ExpTrunc: return m + 0.5 * wm + (1.0 / 12.0) * w.cross(wm);
    case Tangent::Tln: break;
  }
  return m + 0.5 * wm;
}

Matrix3d so3CTmuJacobian(Tangent c, const Vector3d& w, const Vector3d& m) {
  Matrix3d D = -0.5 * skew(m);  // d(w x m)/dw / 2
  const double wm = w.dot(m);
  // d[w x (w x m)]/dw = d[w (w.m) - m |w|^2]/dw = (w.m) I + w m^T - 2 m w^T
  const auto dww = [&]() -> Matrix3d {
    return wm * Matrix3d::Identity() + w * m.transpose() - 2.0 * m * w.transpose();
  };
  switch (c) {
    case Tangent::Cay: D += 0.25 * (wm * Matrix3d::Identity() + w * m.transpose()); break;
    case Tangent::ExpTrunc: D += (1.0 / 12.0) * dww(); break;
    case Tangent::Exp: {
      const double s = w.squaredNorm();
      D += so3::coeff::K(s) * dww() + (2.0 * so3::coeff::dK(s)) * w.cross(w.cross(m)) * w.transpose();
      break;
    }
    case Tangent::Tln: break;
  }
  return D;
}

Vector6d se3CTmu(Tangent c, const Vector6d& xi, const Vector6d& mu) {
  const Vector3d w = xi.head<3>(), v = xi.tail<3>(), m = mu.head<3>(), p = mu.tail<3>();
  Vector6d r;
  switch (c) {
    case Tangent::Cay: {  // C_cay = [[A, 0], [-D v^/2, D]], D = I - w^/2 (seed 000 eq. (14))
      const Vector3d q = p + 0.5 * w.cross(p);  // D^T p
      r << m + 0.5 * w.cross(m) + 0.25 * w.dot(m) * w + 0.5 * v.cross(q), q;
      return r;
    }
    case Tangent::Tln: return mu - 0.5 * adT(xi, mu);
    case Tangent::ExpTrunc: {
      const Vector6d a1 = adT(xi, mu);
      return mu - 0.5 * a1 + (1.0 / 12.0) * adT(xi, a1);
    }
    case Tangent::Exp: {  // ERRATA: dexp^{-1} = I - ad/2 + c2 ad^2 + c4 ad^4, c2 = K - s K', c4 = -K'
      const double s = w.squaredNorm(), k = so3::coeff::K(s), dk = so3::coeff::dK(s);
      const Vector6d a1 = adT(xi, mu), a2 = adT(xi, a1), a4 = adT(xi, adT(xi, a2));
      return mu - 0.5 * a1 + (k - s * dk) * a2 - dk * a4;
    }
  }
  return mu;
}

Vector6d LgviSe3::predictor(double h, const Vector6d& fk) const {
  // Explicit-Euler predictor (ERRATA; App. A uses the unknown xi_k): xi_k^0 = xi_{k-1} + h II^{-1}
  // (ad*_{xi_{k-1}} II xi_{k-1} + f_k), ad* II xi = (J w x w + m v x v; m v x w) (eq. (8)). Its angular
  // part is J w x w + torque (m v x v = 0): all the 3x3 rotation solves need.
  const Matrix3d& J = inertia_.J;
  const Vector3d wPrev = xiPrev_.head<3>(), vPrev = xiPrev_.tail<3>();
  Vector6d xi;
  xi << wPrev + h * (Jinv_ * ((J * wPrev).cross(wPrev) + fk.head<3>())),
      vPrev + h * (vPrev.cross(wPrev) + fk.tail<3>() / inertia_.mass);  // linear part: m v' = m v x w + F
  return xi;
}

se3::Pose lgviNextPose(const LgviOptions& o, const se3::Pose& g, double h, const Vector6d& xi, se3::Pose* segment) {
  const Vector3d w = xi.head<3>(), v = xi.tail<3>();
  se3::Pose gNext, T;
  if (o.group == LgviGroup::SE3) {
    if (o.retraction == Retraction::Cay) {
      // eq. (9) with the ERRATA translation block B_cay(w) = I + 2/(4+|w|^2)(w^ + w^2/2) (= se3::Bcay),
      // applied to the vector (w = h omega, u = h v): u + 2/(4+|w|^2)(w x u + w x (w x u)/2).
      const Vector3d hw = h * w, hv = h * v, wxu = hw.cross(hv);
      T.x = hv + (2.0 / (4.0 + hw.squaredNorm())) * (wxu + 0.5 * hw.cross(wxu));
      T.R = so3::cay(hw);
      gNext.R.noalias() = g.R * T.R;
      gNext.x.noalias() = g.x + g.R * T.x;
    } else {
      T = se3::exp(h * xi);
      gNext = g * T;  // eq. (9) with B_exp
    }
  } else {
    T.R = o.retraction == Retraction::Cay ? so3::cay(h * w) : so3::exp(h * w);
    T.x = h * v;
    gNext.R = g.R * T.R;
    gNext.x = g.x + h * (g.R * v);
  }
  if (segment) *segment = T;
  return gNext;
}

se3::Pose LgviSe3::nextPose(double h, const Vector6d& xi, se3::Pose* segment) const {
  return lgviNextPose(options_, g_, h, xi, segment);
}

Vector6d lgviNextMomentum(const RigidBodyInertia& inertia, const LgviOptions& o, double h, const Vector6d& xi,
                          Matrix6d* dXi) {
  const Vector3d w = xi.head<3>(), v = xi.tail<3>();
  const Vector6d IIxi = (Vector6d() << inertia.J * w, inertia.mass * v).finished();
  Vector6d muNext;
  if (o.group == LgviGroup::SE3) {
    muNext = se3CTmu(o.tangent, -h * xi, IIxi);
    if (dXi) *dXi = -h * se3::dCTmu(o.tangent, -h * xi, IIxi) + se3::tangentInverse(o.tangent, -h * xi).transpose() *
                                                                   generalizedInertia(inertia);
    return muNext;
  }
  // The linear momentum m xdot_k is fixed in the world; express it in the body frame of node k+1.
  const Matrix3d dR = o.retraction == Retraction::Cay ? so3::cay(h * w) : so3::exp(h * w);
  muNext << so3CTmu(o.tangent, -h * w, IIxi.head<3>()), dR.transpose() * IIxi.tail<3>();
  if (dXi) {
    // Rotation rows: C(-h w)^T J (columns: C^T is linear in m) - h d[C(w')^T m]/dw' at w' = -h w. Linear rows:
    // dR(w + d) = dR exp((E d)^) with E = h dtau_{-h w}, so d(dR^T p) = (dR^T p)^ E d, and m dR^T dv.
    dXi->setZero();
    for (int j = 0; j < 3; ++j) dXi->block<3, 1>(0, j) = so3CTmu(o.tangent, -h * w, inertia.J.col(j));
    dXi->topLeftCorner<3, 3>() -= h * so3CTmuJacobian(o.tangent, -h * w, IIxi.head<3>());
    const Matrix3d E = h * (o.retraction == Retraction::Cay ? so3::dcay(-h * w) : so3::dexp(-h * w));
    dXi->bottomLeftCorner<3, 3>() = skew(muNext.tail<3>()) * E;
    dXi->bottomRightCorner<3, 3>() = inertia.mass * dR.transpose();
  }
  return muNext;
}

LgviSe3::LgviSe3(RigidBodyInertia inertia, LgviOptions options) : inertia_(std::move(inertia)), options_(options) {
  validateInertia(inertia_);
  validateOptions(options_);
  Jinv_ = inertia_.J.inverse();
}

void LgviSe3::setOptions(const LgviOptions& options) {
  validateOptions(options);
  options_ = options;
}

void LgviSe3::initialize(const se3::Pose& g0, const Vector6d& xi0, double t0, double h, const WrenchField& f) {
  if (!(h > 0.0 && std::isfinite(h))) throw BadInput("LGVI step size h = " + num(h) + ": allowed (0, inf) s");
  if (!xi0.allFinite() || !g0.x.allFinite() || !g0.R.allFinite() || !std::isfinite(t0))
    throw BadInput("LGVI initial state is not finite");
  g_ = g0;
  xiPrev_ = xi0;
  clock_.reset(t0, h);
  newtonIterations_ = 0;
  const Vector6d f0 = f ? f(g0, xi0, t0) : Vector6d::Zero();
  if (!f0.allFinite()) throw SimulationDiverged("body wrench at t=" + num(t0) + " is not finite");
  muMinus_ = generalizedInertia(inertia_) * xi0 - 0.5 * h * f0;  // ERRATA: discrete Legendre start
  initialized_ = true;
}

void LgviSe3::initializeFromPreviousVelocity(const se3::Pose& g0, const Vector6d& xi0, double t0, double h) {
  initialize(g0, xi0, t0, h, WrenchField{});
  const Vector6d mu = generalizedInertia(inertia_) * xi0;
  if (options_.group == LgviGroup::SE3) {
    muMinus_ = se3CTmu(options_.tangent, -h * xi0, mu);
  } else {  // same update as the end of step(): the linear momentum is carried into the frame of node 0
    const Vector3d hw = h * xi0.head<3>();
    const Matrix3d dR = options_.retraction == Retraction::Cay ? so3::cay(hw) : so3::exp(hw);
    muMinus_ << so3CTmu(options_.tangent, -hw, mu.head<3>()), dR.transpose() * mu.tail<3>();
  }
}

Vector6d LgviSe3::nodeMomentumBody(const WrenchField& f) const {
  if (!f) return muMinus_;
  return muMinus_ + 0.5 * clock_.h * f(g_, xiPrev_, time());
}

double LgviSe3::energy() const {
  const Vector3d pi = muMinus_.head<3>(), p = muMinus_.tail<3>();
  return 0.5 * (pi.dot(Jinv_ * pi) + p.squaredNorm() / inertia_.mass);
}

LgviSe3::Solution LgviSe3::solveStep(double h, const Vector6d& b, const Vector6d& fk) const {
  const Matrix3d& J = inertia_.J;
  const double m = inertia_.mass;
  const Tangent c = options_.tangent;
  const Vector6d xi0 = predictor(h, fk);
  Vector3d w = xi0.head<3>();
  Solution s;
  const double bNorm = b.norm();
  const Vector3d bAng = b.head<3>(), bLin = b.tail<3>();

  if (options_.group == LgviGroup::SO3xR3) {
    // Rotation: C_SO3(h w)^T J w = b_ang. Translation (world frame, rotated into body k): m v_k = b_lin.
    // The rotation solve reads nothing translational (predictor J w x w + torque, tolerance on |b_ang|),
    // so its result is bit-identical whatever the force and the velocity.
    RotationProblem problem{c, h, J, bAng, bLin, Vector3d::Zero(), false};
    s.newton = solveRotation(w, problem, bAng.norm(), options_);
    s.xi << w, bLin / m;
    return s;
  }
  if (options_.reducedNewton && (c == Tangent::Cay || c == Tangent::Tln)) {
    // Linear rows (both Cay and Tln): (I + (h/2) w^) m v = b_lin  =>  v(w) = (I + (h/2) w^)^{-1} b_lin/m.
    // Angular rows: C_SO3(h w)^T J w + [Cay only] (h/2) v(w) x (D^T m v) - b_ang, and D^T m v = b_lin.
    // (For Tln the v x m v term vanishes: the rotation decouples from translation.)
    RotationProblem problem{c, h, J, bAng, bLin, bLin / m, c == Tangent::Cay};
    s.newton = solveRotation(w, problem, bNorm, options_);
    const double a = 0.5 * h;  // v = (I + a w^)^{-1} u as a vector formula (see inverseOfIdentityPlusHat)
    const Vector3d& u = problem.u;
    s.xi << w, (u - a * w.cross(u) + (a * a * w.dot(u)) * w) / (1.0 + a * a * w.squaredNorm());
    return s;
  }
  // Full 6x6 Newton: r(xi) = C(h xi)^T II xi - b, Jacobian h dCTmu(c, h xi, II xi) + C(h xi)^T II.
  s.xi = xi0;
  const Matrix6d II = generalizedInertia(inertia_);
  s.newton = newton<6>(
      s.xi, bNorm, options_, [&](const Vector6d& x) { return Vector6d(se3CTmu(c, h * x, II * x) - b); },
      [&](const Vector6d& x) {
        return Matrix6d(h * se3::dCTmu(c, h * x, II * x) + se3::tangentInverse(c, h * x).transpose() * II);
      },
      [&](const Vector6d& x) {  // C^T II xi = II xi (I - ad^T/2 + ~ad^T^2/12 + ~ad^T^4/720), |ad^T| ~ |h xi|
        const double hx = h * x.norm(), mu = (II * x).norm();
        return bNorm + mu * (1.0 + hx / 2 + hx * hx / 4 + hx * hx * hx * hx / 720);
      });
  return s;
}

void LgviSe3::step(double h, const WrenchField& f, const ImplicitWrench& fEnd) {
  if (!initialized_) throw BadInput("LgviSe3::step called before initialize");
  if (!(h > 0.0 && std::isfinite(h))) throw BadInput("LGVI step size h = " + num(h) + ": allowed (0, inf) s");
  const std::string failure = advance(h, f, fEnd);
  substeps_ = 1;
  if (failure.empty()) return;
  if (!fEnd) throw SimulationDiverged(failure);
  if (!stepInSubsteps(h, f, fEnd))
    throw SimulationDiverged(failure + " (also with the step split into up to 1024 substeps)");
}

std::string LgviSe3::advance(double h, const WrenchField& f, const ImplicitWrench& fEnd) {
  const double t = time();
  const Vector6d fk = f ? f(g_, xiPrev_, t) : Vector6d::Zero();
  if (!fk.allFinite()) throw SimulationDiverged("body wrench at t=" + num(t) + " is not finite");
  // h change: keep the node momentum mu^-_k + (h_old/2) f_k (discrete Legendre restart; see header).
  const Vector6d muMinus = h == clock_.h ? muMinus_ : Vector6d(muMinus_ + 0.5 * (clock_.h - h) * fk);
  const Vector6d b = muMinus + h * fk;

  // nothing is committed before the checks below
  const Solution s = fEnd ? solveStepImplicit(h, b, fk, fEnd) : solveStep(h, b, fk);
  if (!s.newton.converged) {
    const bool finite = s.xi.allFinite() && std::isfinite(s.newton.relativeResidual);
    return "LGVI Newton " + std::string(finite ? "did not converge" : "produced a non-finite velocity") + " within " +
           std::to_string(s.newton.iterations) + " iterations at t=" + num(t) + ": relative momentum residual " +
           num(s.newton.relativeResidual) + " > tolerance " + num(options_.newtonTolerance) +
           " (|omega| h = " + num(h * xiPrev_.head<3>().norm()) + " rad before the step)";
  }
  const Vector6d& xi = s.xi;
  const Vector3d w = xi.head<3>();
  // dexp^{-1} has poles at h|omega| = 2 pi n: a root beyond the first pole is not a valid segment.
  if (options_.tangent == Tangent::Exp && h * w.norm() >= 2.0 * M_PI)
    return "LGVI step at t=" + num(t) + ": h |omega| = " + num(h * w.norm()) +
           " rad reached 2 pi, where dexp^-1 is singular (reduce dt or use tangent cay)";
  const se3::Pose gNext = nextPose(h, xi);
  const Vector6d muNext = lgviNextMomentum(inertia_, options_, h, xi);
  if (!gNext.R.allFinite() || !gNext.x.allFinite() || !muNext.allFinite())
    return "LGVI pose or momentum became non-finite at t=" + num(t + h);

  // What this step applied to the spatial left momentum (h change, then eq. (10)): S(g_{k+1}, mu^-_{k+1}) -
  // S(g_k, mu^-_k) for the matched pairs, S = Ad*_{g^-1}.
  stepImpulse_ = se3::spatialMomentum(g_, Vector6d(muMinus - muMinus_ + h * (fk + s.fEnd)));
  clock_.advance(h);
  g_ = gNext;
  muMinus_ = muNext;
  xiPrev_ = xi;
  newtonIterations_ = s.newton.iterations;
  implicitWrenchAtEnd_ = s.fEndRaw;
  return {};
}

std::vector<double> LgviSe3::saveState() const {
  std::vector<double> s(g_.R.data(), g_.R.data() + 9);
  s.insert(s.end(), g_.x.data(), g_.x.data() + 3);
  s.insert(s.end(), muMinus_.data(), muMinus_.data() + 6);
  s.insert(s.end(), xiPrev_.data(), xiPrev_.data() + 6);
  clock_.save(s);
  s.push_back(double(newtonIterations_));
  return s;
}

void LgviSe3::loadState(const std::vector<double>& s) {
  checkSavedState(s, 28, "LGVI state");
  if (!(s[26] > 0.0)) throw BadInput("LGVI state: step size must be > 0");
  g_.R = Eigen::Map<const Matrix3d>(s.data());
  g_.x = Eigen::Map<const Vector3d>(s.data() + 9);
  muMinus_ = Eigen::Map<const Vector6d>(s.data() + 12);
  xiPrev_ = Eigen::Map<const Vector6d>(s.data() + 18);
  clock_.load(s.data() + 24);
  newtonIterations_ = int(s[27]);
  implicitWrenchAtEnd_.setZero();
  stepImpulse_.setZero();
  substeps_ = 1;
  initialized_ = true;
}

}  // namespace varsim
