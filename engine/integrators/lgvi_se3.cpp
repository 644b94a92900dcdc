// engine/integrators/lgvi_se3.cpp — the LGVI stepper of seed 000: the C maps of eq. (14), the step (Newton on
// eq. (10), lgvi_newton.h), pose update eq. (9), discrete-Legendre start and h changes (ERRATA). The inner loop
// is allocation-free: fixed-size Eigen types, the residual/Jacobian inlined into a templated Newton loop.
#include "engine/integrators/lgvi_se3.h"

#include <Eigen/LU>
#include <cmath>
#include <limits>
#include <string>

#include "engine/integrators/lgvi_newton.h"
#include "engine/lie/so3.h"
#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {

using namespace lgvi_detail;

namespace {

std::string num(double v) { return formatNumber(v); }

void validateOptions(const LgviOptions& o) {
  if (!(o.newtonTolerance >= 1e-16 && o.newtonTolerance <= 1e-6))
    throw BadInput("LGVI newtonTolerance = " + num(o.newtonTolerance) + ": allowed range [1e-16, 1e-6]");
  if (o.maxNewtonIterations < 1)
    throw BadInput("LGVI maxNewtonIterations = " + std::to_string(o.maxNewtonIterations) + ": allowed >= 1");
  if (o.maxSubstepLevel < 0 || o.maxSubstepLevel > 10)
    throw BadInput("LGVI maxSubstepLevel = " + std::to_string(o.maxSubstepLevel) + ": allowed range [0, 10]");
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
  if (!stepInSubsteps(h, f, fEnd))
    throw SimulationDiverged(failure + (options_.maxSubstepLevel > 0 ? " (also with the step split into up to " +
                                                                           std::to_string(1 << options_.maxSubstepLevel) +
                                                                           " substeps)"
                                                                     : std::string()));
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
