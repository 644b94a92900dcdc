// engine/integrators/lgvi_se3_implicit.cpp — the end-of-step (implicit) wrench of LgviSe3 (see lgvi_se3.h):
// transport of f^+(g_{k+1}, xi_k^+) into the frame of node k with its exact Jacobian (chain rule through
// g_{k+1} = g_k tau(h xi_k)), the full 6x6 Newton with backtracking it needs, and the segment work.
// Why backward Euler in the force: a penalty spring in the node wrench f(g_k, xi_{k-1}) is explicit and gains energy
// once h w > 2 (issue 15 item 10: a 10 kg helicopter on its pad, 16x its energy in 20 s); evaluated at g_{k+1} it
// damps every mode, |lambda|^2 = 1/(1 + h^2 w^2), so the stiffness needs no h limit.
#include <Eigen/LU>
#include <cmath>
#include <limits>
#include <vector>

#include "engine/integrators/lgvi_se3.h"
#include "engine/lie/so3.h"
#include "engine/sim/errors.h"

namespace varsim {

namespace {

// Body-frame perturbation eta of tau(h xi) per unit d xi, on the group of the retraction: tau(h(xi + d)) = tau(h xi)
// exp(h dtau_{-h xi} d) + O(d^2) (right-trivialized dtau; Ad_{tau(x)^-1} dtau_x = dtau_{-x}).
Matrix3d so3EtaPerXi(Retraction tau, double h, const Vector3d& w) {
  return h * (tau == Retraction::Cay ? so3::dcay(-h * w) : so3::dexp(-h * w));
}
Matrix6d se3EtaPerXi(Retraction tau, double h, const Vector6d& xi) {
  return h * (tau == Retraction::Cay ? se3::dcay(-h * xi) : se3::dexp(-h * xi));
}

}  // namespace

Vector6d lgviEndOfStepWrench(const LgviOptions& o, const se3::Pose& gk, double tk, double h, const Vector6d& xi,
                             const ImplicitWrench& fEnd, Matrix6d* jacobian, Vector6d* raw, Matrix6d* dPose) {
  const bool onSe3 = o.group == LgviGroup::SE3;
  se3::Pose T;  // segment motion tau(h xi) (SO(3)xR^3: its rotation)
  const se3::Pose gNext = lgviNextPose(o, gk, h, xi, &T);
  Vector6d xiPlus = xi;  // the segment twist seen from g_{k+1}; unchanged on SE(3)
  if (!onSe3) xiPlus.tail<3>() = T.R.transpose() * xi.tail<3>();
  ImplicitWrenchJacobian partial;
  const Vector6d F = fEnd(gNext, xiPlus, tk + h, jacobian || dPose ? &partial : nullptr);
  if (raw) *raw = F;
  // Tr F: the torque about the centre of mass and the force, rotated into the axes of node k (both groups). Not
  // Ad_{T^-1}^T on SE(3): that adds the moment (h v) x F of a force through the centre of mass at k+1 about the one
  // at k, a spurious O(h) torque that spins a body pushed through its centre (measured: a centre spring then leaves
  // 7e-5 of its energy in rotation instead of damping it all).
  Vector6d f;
  f << T.R * F.head<3>(), T.R * F.tail<3>();
  Matrix6d Tr = Matrix6d::Zero();
  Tr.topLeftCorner<3, 3>() = T.R;
  Tr.bottomRightCorner<3, 3>() = T.R;
  if (dPose) {
    // g_k perturbed moves g_{k+1} = g_k T by P (theta, y): SE(3) g_k e^eps T = g_k T e^(Ad_{T^-1} eps); SO(3)xR^3
    // R_k e^theta dR = R_{k+1} e^(dR^T theta), x_k + R_k y + h R_k e^theta v -> y' = dR^T (y - h v^ theta). xi^+ and Tr
    // do not depend on g_k.
    Matrix6d P = Matrix6d::Zero();
    if (onSe3) {
      P = se3::AdInv(T);
    } else {
      P.topLeftCorner<3, 3>() = T.R.transpose();
      P.bottomRightCorner<3, 3>() = T.R.transpose();
      P.bottomLeftCorner<3, 3>() = -h * T.R.transpose() * so3::hat(xi.tail<3>());
    }
    *dPose = Tr * partial.dPose * P;
  }
  if (!jacobian) return f;

  // d eta/d xi (pose) and d xi^+/d xi (twist seen from the moving end frame).
  Matrix6d E = Matrix6d::Zero(), V = Matrix6d::Identity();
  if (onSe3) {
    E = se3EtaPerXi(o.retraction, h,
                    xi);  // its rotation rows depend on omega only
  } else {
    const Matrix3d Er = so3EtaPerXi(o.retraction, h, xi.head<3>());
    E.topLeftCorner<3, 3>() = Er;
    E.bottomRightCorner<3, 3>() = h * T.R.transpose();             // x_{k+1} = x_k + h R_k v: y = h dR^T dv
    V.bottomLeftCorner<3, 3>() = so3::hat(xiPlus.tail<3>()) * Er;  // (dR e^theta)^T v = dR^T v + v+ ^ theta
    V.bottomRightCorner<3, 3>() = T.R.transpose();
  }
  // The transport turns with the end rotation: d(dR e^theta a) = -dR a^ theta for a = F_a, F_l.
  Matrix6d Lambda = Matrix6d::Zero();
  Lambda.topLeftCorner<3, 3>() = so3::hat(F.head<3>());
  Lambda.bottomLeftCorner<3, 3>() = so3::hat(F.tail<3>());
  *jacobian = Tr * (partial.dPose * E + partial.dXi * V - Lambda * E);
  return f;
}

Vector6d LgviSe3::endOfStepWrench(double h, const Vector6d& xi, const ImplicitWrench& fEnd, Matrix6d* jacobian,
                                  Vector6d* raw) const {
  return lgviEndOfStepWrench(options_, g_, time(), h, xi, fEnd, jacobian, raw);
}

LgviResidual lgviResidual(const RigidBodyInertia& inertia, const LgviOptions& o, const se3::Pose& gk, double tk,
                          double h, const Vector6d& b, const Vector6d& xi, const ImplicitWrench& fEnd, bool jacobians,
                          bool poseJacobian) {
  const Tangent c = o.tangent;
  const Matrix6d II = generalizedInertia(inertia);
  LgviResidual e;
  if (fEnd)
    e.fEnd = lgviEndOfStepWrench(o, gk, tk, h, xi, fEnd, jacobians ? &e.dFEnd : nullptr, &e.fEndRaw,
                                 jacobians && poseJacobian ? &e.dPose : nullptr);
  const Vector6d IIx = II * xi;
  if (o.group == LgviGroup::SE3) {
    e.r = se3CTmu(c, h * xi, IIx) - b;
    if (jacobians) e.dXi = h * se3::dCTmu(c, h * xi, IIx) + se3::tangentInverse(c, h * xi).transpose() * II;
  } else {
    const Vector3d hw = h * xi.head<3>();
    e.r << so3CTmu(c, hw, IIx.head<3>()) - b.head<3>(), IIx.tail<3>() - b.tail<3>();
    if (jacobians) {
      e.dXi.setZero();
      for (int j = 0; j < 3; ++j) e.dXi.block<3, 1>(0, j) = so3CTmu(c, hw, inertia.J.col(j));  // C^T J
      e.dXi.topLeftCorner<3, 3>() += h * so3CTmuJacobian(c, hw, IIx.head<3>());
      e.dXi.bottomRightCorner<3, 3>().diagonal().setConstant(inertia.mass);
    }
  }
  e.r -= h * e.fEnd;
  if (jacobians) {
    e.dXi -= h * e.dFEnd;
    e.dPose *= -h;
  }
  return e;
}

LgviSe3::Solution LgviSe3::solveStepImplicit(double h, const Vector6d& b, const Vector6d& fk,
                                             const ImplicitWrench& fEnd) const {
  const Matrix6d II = generalizedInertia(inertia_);
  struct Eval {
    Vector6d r, fEnd, fEndRaw;
    Matrix6d J;
    double scale = 0.0;  // size of the terms that cancel in r (relative tolerance)
    // Round-off floor of r: the wrench sees g_{k+1} rounded to eps (|x| + 1) (position and rotation), i.e.
    // |d(h Tr f)/d g| eps (|x| + 1) ~ |J_f| eps (|x| + 1); a spring K (x - a) far from the origin cannot be
    // balanced better than that, however small the momenta are.
    double floor = 0.0;
  };
  // r(xi) = C(h xi)^T II xi - b - h Tr f^+(xi)   (lgviResidual: the pure form the DMOC transcriptions share)
  const auto evaluate = [&](const Vector6d& x) {
    Eval e;
    const LgviResidual res = lgviResidual(inertia_, options_, g_, time(), h, b, x, fEnd, true);
    e.r = res.r;
    e.J = res.dXi;
    e.fEnd = res.fEnd;
    e.fEndRaw = res.fEndRaw;
    e.scale = b.norm() + (II * x).norm() + h * e.fEnd.norm();
    e.floor =
        8.0 * std::numeric_limits<double>::epsilon() * (e.scale + res.dFEnd.norm() * (g_.x.norm() + h * x.norm() + 1.0));
    return e;
  };

  Solution s;
  s.xi = predictor(h, fk);
  Eval e = evaluate(s.xi);
  double rn = e.r.norm(), rPrev = std::numeric_limits<double>::infinity();
  const int maxIterations = std::max(options_.maxNewtonIterations, 50);
  for (int it = 0;; ++it) {
    s.newton.iterations = it;
    s.newton.relativeResidual = e.scale > 0.0 ? rn / e.scale : rn;
    s.fEnd = e.fEnd;
    s.fEndRaw = e.fEndRaw;
    if (!std::isfinite(rn) || !e.J.allFinite()) return s;
    // Converged at the tolerance, or stalled at the round-off floor (as the plain Newton of lgvi_se3.cpp).
    if (rn <= options_.newtonTolerance * e.scale ||
        (it > 0 && rn <= std::max(1e-12 * e.scale, e.floor) && rn > 0.5 * rPrev)) {
      s.newton.converged = true;
      return s;
    }
    if (it >= maxIterations) {
      s.newton.converged = rn <= std::max(1e-10 * e.scale, e.floor);
      return s;
    }
    const Vector6d dx = e.J.partialPivLu().solve(e.r);
    // Backtracking on |r|: contact switches on/off inside a step (the force is only piecewise smooth), where a full
    // Newton step can overshoot into the other piece and cycle.
    double alpha = 1.0;
    Eval trial;
    Vector6d x;
    for (int halvings = 0;; ++halvings) {
      x = s.xi - alpha * dx;
      trial = evaluate(x);
      const double tn = trial.r.norm();
      if ((std::isfinite(tn) && tn <= (1.0 - 1e-4 * alpha) * rn) || halvings >= 12) break;
      alpha *= 0.5;
    }
    rPrev = rn;
    s.xi = x;
    e = trial;
    rn = e.r.norm();
  }
}

bool LgviSe3::stepInSubsteps(double h, const WrenchField& f, const ImplicitWrench& fEnd) {
  // Fallback after a Newton failure, with or without an end-of-step wrench. A free body at omega 1000 and
  // gravity 1000 per axis (h = 1/60) reaches h|omega| = 4.1 rad where the predictor leaves Newton's basin. With the
  // wrench: a step across a violent impact (e.g. 15 m/s into a wall at h = 0.1,
  // where the contact torque spins the body by ~3 rad in one step; a 100 t body with J ~ 1000 kg m^2 hitting a
  // wall with its tail spins at ~7500 rad/s) can leave Newton without a root in reach; the same interval in 2^j
  // equal substeps (exact in binary, so t advances by exactly h), j = 1..maxSubstepLevel, is each a plain step of this
  // scheme (that tail hit needs up to 512). Deterministic: the same inputs split the same way. Costs nothing
  // unless a step fails.
  const std::vector<double> saved = saveState();
  for (int j = 1; j <= options_.maxSubstepLevel; ++j) {
    const int n = 1 << j;
    bool ok = true;
    int iterations = 0;
    Vector6d impulse = Vector6d::Zero();
    for (int i = 0; i < n && ok; ++i) {
      try {
        ok = advance(h / n, f, fEnd).empty();
      } catch (const SimulationDiverged&) {
        ok = false;
      }
      iterations += newtonIterations_;
      impulse += stepImpulse_;
    }
    if (ok) {
      newtonIterations_ = iterations;
      stepImpulse_ = impulse;
      substeps_ = n;
      return true;
    }
    loadState(saved);
  }
  return false;
}

double LgviSe3::segmentWork(const Vector6d& fStart, const Vector6d& fEnd) const {
  const double h = clock_.h;
  Vector6d xiPlus = xiPrev_;
  if (options_.group == LgviGroup::SO3xR3) {
    const Vector3d hw = h * xiPrev_.head<3>();
    const Matrix3d dR = options_.retraction == Retraction::Cay ? so3::cay(hw) : so3::exp(hw);
    xiPlus.tail<3>() = dR.transpose() * xiPrev_.tail<3>();
  }
  return 0.5 * h * (fStart.dot(xiPrev_) + fEnd.dot(xiPlus));
}

}  // namespace varsim
