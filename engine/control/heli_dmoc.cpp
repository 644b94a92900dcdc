// engine/control/heli_dmoc.cpp — rows, exact sparse Jacobian, cost and initial guess of the helicopter DMOC
// (heli_dmoc.h). The dynamics rows evaluate the stepper's own pure functions (lgvi_se3.h); what is written here is only
// their chain rule through the chart R = Rbar exp(theta^) and the node wrench gravity + F(gamma) u.
#include "engine/control/heli_dmoc.h"

#include <cmath>
#include <string>

#include "engine/control/dmoc_blocks.h"
#include "engine/lie/so3.h"
#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {

namespace {

using dmoc::addBlock;
using dmoc::Triplets;
using dmoc::yawMatrix;

}  // namespace

std::vector<BoundingSphere> defaultSpheres(const Helicopter& heli) {
  // One sphere centred halfway up the mast. Its radius reaches the rim of the rotor disc at any tilt within the range
  // (a rim direction perpendicular to n rises by at most r sqrt(1 - n_z^2), n_z >= cos^2 tiltMax), every contact point,
  // and a ball of 1.2 m around the tail rotor (its disc, the fin and the tail tip). One sphere, not a cabin and a tail
  // sphere: with two spheres per node Ipopt needed > 300 iterations on the canyon problem (the rows of the two spheres
  // against the same wall are nearly parallel), with one it converges like the obstacle-free plan.
  BoundingSphere s{Vector3d(0.0, 0.0, 0.5 * heli.hubPosition().z()), 0.0};
  const double r = heli.rotorRadius(), d = heli.hubPosition().z() - s.center.z();
  const double c2 = std::pow(std::cos(std::min(heli.settings().limits.tiltMax, 0.5 * M_PI)), 2);
  s.radius = std::sqrt(r * r + d * d + 2.0 * d * r * std::sqrt(1.0 - c2 * c2)) + 1e-6;
  for (const Vector3d& p : heli.contactPoints()) s.radius = std::max(s.radius, (p - s.center).norm());
  const Vector3d tail = heli.tailRotorPosition() + Vector3d(0.0, 0.0, 0.3);
  s.radius = std::max(s.radius, (tail - s.center).norm() + 1.2);
  return {s};
}

se3::Pose restingPose(const Helicopter& heli, const Eigen::Vector2d& xy, double heading) {
  double lowest = 0.0;
  for (const Vector3d& r : heli.contactPoints()) lowest = std::min(lowest, r.z());
  return {yawMatrix(heading), Vector3d(xy.x(), xy.y(), -lowest)};
}

HeliDmoc::HeliDmoc(HeliDmocSpec spec) : spec_(std::move(spec)), heli_(spec_.heli) {
  const HeliDmocSpec& s = spec_;
  if (s.N < 2) throw BadInput("heli plan: N = " + std::to_string(s.N) + ": allowed >= 2");
  if (!(s.h > 0.0)) throw BadInput("heli plan: h = " + formatNumber(s.h) + ": allowed (0, 0.1] s");
  if (s.lgvi.group != LgviGroup::SO3xR3)
    throw BadInput(
        "heli plan: group se3: allowed so3xr3 (the transcription's "
        "translation rows are eq. (9) on R^3)");
  for (double w : {s.weightCollective, s.weightYaw, s.weightTilt})
    if (!(w >= 0.0 && std::isfinite(w))) throw BadInput("heli plan: weight " + formatNumber(w) + ": allowed [0, inf)");
  const ActuatorLimits& L = s.heli.limits;
  if (!(L.collectiveMax > 0.0 && L.yawMax > 0.0 && L.tiltMax > 0.0))
    throw BadInput(
        "heli plan: actuator ranges must be > 0 (a zero range fixes "
        "the actuator; nothing to plan)");
  for (const Vector3d& p : {s.start.x, s.target.x})
    if (p.z() > s.ceiling)
      throw BadInput("heli plan: ceiling = " + formatNumber(s.ceiling) + " m is below the start or target height " +
                     formatNumber(p.z()) + " m");
  inertia_ = principalInertia(s.heli.mass, s.heli.inertia);
  const double mg = s.heli.mass * s.heli.gravity;
  uScale_ << std::max(mg, 0.1 * L.collectiveMax), L.yawMax, L.tiltMax, L.tiltMax;  // g = 0 allowed: scale > 0
  uTrim_ << mg / uScale_[0], 0.0, 0.0, 0.0;
  W_ << s.weightCollective, s.weightYaw, s.weightTilt, s.weightTilt;
  // The stepper's start (lgvi_se3.h initialize): mu^-_0 = II xi(0) - (h/2) f_0.
  const Vector6d f0 = nodeWrench(s.start, s.u0, nullptr, nullptr);
  muMinus0_ = generalizedInertia(inertia_) * s.xi0 - 0.5 * s.h * f0;

  // Guide: the horizontal polyline start -> waypoints -> target at the rest-to-rest arc length
  // L (tau - sin(2 pi tau)/(2 pi)), and the height blended from the start's and target's to the waypoints' cruise
  // height by smoothsteps over the first and last 15 % of the time (no vertical legs: a vertical climb then a level
  // leg costs a stop at the corner). Measured (Ipopt iterations, exact Hessian; was: climb/level/descend polyline):
  // heli_canyon N = 250/300/350/400: 64/37/34/34 (was 62/87/55/61), the east pad N = 150: 34 (32).
  std::vector<Eigen::Vector2d> P = {s.start.x.head<2>()};
  for (const Vector3d& v : s.via) P.push_back(v.head<2>());
  P.push_back(s.target.x.head<2>());
  double cruise = 0.0;
  for (const Vector3d& v : s.via) cruise += v.z() / double(s.via.size());
  std::vector<double> cum = {0.0};
  for (size_t i = 1; i < P.size(); ++i) cum.push_back(cum.back() + (P[i] - P[i - 1]).norm());
  const double length = cum.back();
  const auto at = [&](double arc, Eigen::Vector2d* dir) {
    size_t i = 1;
    while (i + 1 < P.size() && cum[i] < arc) ++i;
    const double seg = cum[i] - cum[i - 1];
    const double a = seg > 0.0 ? std::clamp((arc - cum[i - 1]) / seg, 0.0, 1.0) : 0.0;
    for (size_t j = i, n = 0; n < 2 * P.size(); ++n) {  // direction of this leg, or of the nearest one that has one
      const Eigen::Vector2d d = P[j] - P[j - 1];
      if (d.norm() > 1e-9) {
        *dir = d.normalized();
        break;
      }
      j = arc < 0.5 * length ? std::min(j + 1, P.size() - 1) : std::max<size_t>(j - 1, 1);
    }
    return Eigen::Vector2d(P[i - 1] + a * (P[i] - P[i - 1]));
  };
  const auto smooth = [](double t) {
    t = std::clamp(t, 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
  };
  const int N = s.N;
  guessX_.resize(N + 1);
  std::vector<Eigen::Vector2d> dirs(N + 1, Eigen::Vector2d::UnitX());
  for (int k = 0; k <= N; ++k) {
    const double tau = double(k) / N, b = smooth(tau / 0.15) * smooth((1.0 - tau) / 0.15);
    const double zEnds = (1.0 - tau) * s.start.x.z() + tau * s.target.x.z();
    guessX_[k] << at(length * (tau - std::sin(2.0 * M_PI * tau) / (2.0 * M_PI)), &dirs[k]),
        s.via.empty() ? zEnds : zEnds + b * (cruise - zEnds);
  }
  guessX_[0] = s.start.x;
  guessX_[N] = s.target.x;
  Rbar_.resize(N + 1);
  const int window = std::max(1, N / 30);  // smooth the heading over the corners of the polyline
  for (int k = 0; k <= N; ++k) {
    Eigen::Vector2d d = Eigen::Vector2d::Zero();
    for (int j = std::max(0, k - window); j <= std::min(N, k + window); ++j) d += dirs[j];
    Rbar_[k] = yawMatrix(std::atan2(d.y(), d.x()));
  }
  Rbar_[0] = s.start.R;
  Rbar_[N] = s.target.R;
}

int HeliDmoc::rowsPerNode() const {
  if (!spec_.withWorld) return 0;
  return int(spec_.spheres.size() * spec_.world.rocks().size() + heli_.contactPoints().size());
}

int HeliDmoc::numConstraints() const {
  return clearanceRow0() + std::max(0, lastClearanceNode() - 1) * rowsPerNode();
}

se3::Pose HeliDmoc::pose(const Eigen::VectorXd& x, int k) const {
  const int o = kBlock * k;
  return {Rbar_[k] * so3::exp(x.segment<3>(o)), x.segment<3>(o + 3)};
}

void HeliDmoc::setPose(Eigen::VectorXd& x, int k, const se3::Pose& g) const {
  const int o = kBlock * k;
  x.segment<3>(o) = so3::log(Rbar_[k].transpose() * g.R);
  x.segment<3>(o + 3) = g.x;
}

RotorState HeliDmoc::control(const Eigen::VectorXd& x, int k) const {
  const int o = kBlock * k + 12;
  return {x[o] * uScale_[0], x[o + 1] * uScale_[1], x[o + 2] * uScale_[2], x[o + 3] * uScale_[3]};
}

void HeliDmoc::setControl(Eigen::VectorXd& x, int k, const RotorState& u) const {
  x.segment<4>(kBlock * k + 12) = Eigen::Vector4d(u.collective, u.yaw, u.pitch, u.roll).cwiseQuotient(uScale_);
}

void HeliDmoc::bounds(Eigen::VectorXd& xL, Eigen::VectorXd& xU, Eigen::VectorXd& gL, Eigen::VectorXd& gU) const {
  const HeliDmocSpec& s = spec_;
  const ActuatorLimits& L = s.heli.limits;
  const int N = s.N;
  xL = Eigen::VectorXd::Constant(numVariables(), -kNlpInfinity);
  xU = Eigen::VectorXd::Constant(numVariables(), kNlpInfinity);
  for (int k = 1; k < N; ++k) {
    const int o = kBlock * k;
    xU[o + 5] = s.ceiling;
    xL.segment<4>(o + 12) = Eigen::Vector4d(0.0, -L.yawMax, -L.tiltMax, -L.tiltMax).cwiseQuotient(uScale_);
    xU.segment<4>(o + 12) = Eigen::Vector4d(L.collectiveMax, L.yawMax, L.tiltMax, L.tiltMax).cwiseQuotient(uScale_);
  }
  const Eigen::Vector4d u0 = Eigen::Vector4d(s.u0.collective, s.u0.yaw, s.u0.pitch, s.u0.roll).cwiseQuotient(uScale_);
  xL.segment<3>(0).setZero(), xU.segment<3>(0).setZero();
  xL.segment<3>(3) = xU.segment<3>(3) = s.start.x;
  xL.segment<4>(12) = xU.segment<4>(12) = u0;
  if (s.endAtRest) {
    xL.segment<4>(kBlock * (N - 1) + 12) = xU.segment<4>(kBlock * (N - 1) + 12) = uTrim_;  // lands in trim, stays
    xL.segment<6>(kBlock * (N - 1) + 6).setZero(), xU.segment<6>(kBlock * (N - 1) + 6).setZero();
  } else {
    xU[kBlock * N + 5] = s.ceiling;  // the last node is reached in flight: under the ceiling like the others
  }
  xL.segment<3>(kBlock * N).setZero(), xU.segment<3>(kBlock * N).setZero();
  xL.segment<3>(kBlock * N + 3) = xU.segment<3>(kBlock * N + 3) = s.target.x;

  gL = Eigen::VectorXd::Zero(numConstraints());
  gU = Eigen::VectorXd::Zero(numConstraints());
  const double shrink = 1.0 - s.rateMargin;
  const Eigen::Vector4d rate =
      shrink * s.h * Eigen::Vector4d(L.collectiveRate, L.yawRate, L.tiltRate, L.tiltRate).cwiseQuotient(uScale_);
  for (int k = 0; k + 1 < N; ++k) {
    gL.segment<4>(rateRow0() + 4 * k) = -rate;
    gU.segment<4>(rateRow0() + 4 * k) = rate;
  }
  const int spheresRocks = int(s.spheres.size() * s.world.rocks().size());
  for (int k = 2; k <= lastClearanceNode(); ++k) {
    const int r = clearanceRow0() + (k - 2) * rowsPerNode();
    for (int i = 0; i < rowsPerNode(); ++i) {
      gL[r + i] = i < spheresRocks ? s.margin : s.groundMargin;
      gU[r + i] = kNlpInfinity;
    }
  }
}

Eigen::VectorXd HeliDmoc::initialGuess() const {
  const HeliDmocSpec& s = spec_;
  const int N = s.N;
  Eigen::VectorXd x = Eigen::VectorXd::Zero(numVariables());
  for (int k = 0; k <= N; ++k) x.segment<3>(kBlock * k + 3) = guessX_[k];
  for (int k = 0; k < N; ++k) {
    const int o = kBlock * k;
    x.segment<4>(o + 12) =
        k == 0
            ? Eigen::Vector4d(Eigen::Vector4d(s.u0.collective, s.u0.yaw, s.u0.pitch, s.u0.roll).cwiseQuotient(uScale_))
            : uTrim_;
    if (k == N - 1 && s.endAtRest) continue;  // at rest on the last segment
    // xi from the guess's own poses: eq. (9) on SO(3)xR^3 holds exactly (tau^-1 of the relative rotation, v = R^T
    // dx/h).
    const Matrix3d dR = Rbar_[k].transpose() * Rbar_[k + 1];
    const Vector3d hw = s.lgvi.retraction == Retraction::Cay ? so3::cayInv(dR) : so3::log(dR);
    x.segment<3>(o + 6) = hw / s.h;
    x.segment<3>(o + 9) = Rbar_[k].transpose() * (guessX_[k + 1] - guessX_[k]) / s.h;
  }
  return x;
}

DmocLayout HeliDmoc::layout() const {
  DmocLayout l;
  l.N = spec_.N;
  l.h = spec_.h;
  for (int k = 0, o = 12; k < spec_.N; ++k, o += kBlock) l.controls.push_back({o, o + 1, o + 2, o + 3});
  l.controlWeights = W_;
  for (int i = 0; i < 6; ++i) l.terminal.push_back(kBlock * spec_.N + i);
  l.target = (Eigen::VectorXd(6) << 0.0, 0.0, 0.0, spec_.target.x).finished();
  for (size_t k = 1; k < spec_.trackTargets.size() && int(k) <= spec_.N; ++k) {
    const int o = kBlock * int(k) + 3;
    l.tracked.push_back({o, o + 1, o + 2});
    l.trackTargets.push_back(spec_.trackTargets[k]);
  }
  return l;
}

double HeliDmoc::objective(const Eigen::VectorXd& x) const {
  double J = 0.0;
  for (int k = 0; k < spec_.N; ++k) {
    const Eigen::Vector4d d = x.segment<4>(kBlock * k + 12) - uTrim_;
    J += spec_.h * d.dot(W_.cwiseProduct(d));
  }
  return J;
}

Eigen::VectorXd HeliDmoc::gradient(const Eigen::VectorXd& x) const {
  Eigen::VectorXd g = Eigen::VectorXd::Zero(numVariables());
  for (int k = 0; k < spec_.N; ++k) {
    const int o = kBlock * k + 12;
    g.segment<4>(o) = 2.0 * spec_.h * W_.cwiseProduct(x.segment<4>(o) - uTrim_);
  }
  return g;
}

Vector6d HeliDmoc::nodeWrench(const se3::Pose& g, const RotorState& u, Eigen::Matrix<double, 6, 3>* dTheta,
                              Eigen::Matrix<double, 6, 4>* dU) const {
  // The scene's node wrench (helicopter_scene.cpp vehicleWrench with contact=implicit), term for term.
  const Vector6d f = heli_.gravityWrench(g.R) + heli_.controlWrench(u);
  if (dTheta) {  // gravity R^T G: d/dtheta = (R^T G)^ (body perturbation)
    dTheta->setZero();
    dTheta->bottomRows<3>() = so3::hat(heli_.gravityWrench(g.R).tail<3>());
  }
  if (dU) {
    const Eigen::Matrix<double, 6, 2> F = heli_.controlMatrix(u.pitch, u.roll);
    const double sp = std::sin(u.pitch), cp = std::cos(u.pitch), sr = std::sin(u.roll), cr = std::cos(u.roll);
    const Vector3d hub = heli_.hubPosition();
    const Vector3d dnP(cp * cr, 0.0, -sp * cr), dnR(-sp * sr, -cr, -cp * sr);  // dn/dgamma_p, dn/dgamma_r
    dU->col(0) = F.col(0);
    dU->col(1) = F.col(1);
    dU->col(2) << u.collective * hub.cross(dnP), u.collective * dnP;
    dU->col(3) << u.collective * hub.cross(dnR), u.collective * dnR;
  }
  return f;
}

ImplicitWrench HeliDmoc::endWrench(bool contact) const {
  const HelicopterWorld* world = contact && spec_.withWorld ? &spec_.world : nullptr;
  return [this, world](const se3::Pose& g, const Vector6d& xi, double, ImplicitWrenchJacobian* jac) {
    return helicopterDissipativeWrench(heli_, world, spec_.contact, g, xi, jac ? &jac->dPose : nullptr,
                                       jac ? &jac->dXi : nullptr);
  };
}

Vector6d HeliDmoc::leftMomentum(const Eigen::VectorXd& x, int k, Matrix6d* dPrev) const {
  if (k == 0) return muMinus0_;
  return lgviNextMomentum(inertia_, spec_.lgvi, spec_.h, twist(x, k - 1), dPrev);
}

Eigen::Matrix<double, 12, 1> HeliDmoc::segmentRows(const Eigen::VectorXd& x, int k, bool sceneWrench) const {
  const HeliDmocSpec& s = spec_;
  const double h = s.h;
  const se3::Pose gk = pose(x, k), gk1 = pose(x, k + 1);
  const Vector6d b = leftMomentum(x, k, nullptr) + h * nodeWrench(gk, control(x, k), nullptr, nullptr);
  const LgviResidual res = lgviResidual(inertia_, s.lgvi, gk, k * h, h, b, twist(x, k), endWrench(sceneWrench), false);
  Eigen::Matrix<double, 12, 1> r;
  r << res.r / s.heli.mass, dmoc::poseRows(s.lgvi, h, gk, twist(x, k), gk1);
  return r;
}

Eigen::VectorXd HeliDmoc::constraints(const Eigen::VectorXd& x) const {
  const HeliDmocSpec& s = spec_;
  Eigen::VectorXd g(numConstraints());
  for (int k = 0; k < s.N; ++k) g.segment<12>(12 * k) = segmentRows(x, k);
  for (int k = 0; k + 1 < s.N; ++k)
    g.segment<4>(rateRow0() + 4 * k) = x.segment<4>(kBlock * (k + 1) + 12) - x.segment<4>(kBlock * k + 12);
  for (int k = 2; k <= lastClearanceNode() && s.withWorld; ++k) {
    int r = clearanceRow0() + (k - 2) * rowsPerNode();
    const se3::Pose gk = pose(x, k);
    for (const BoundingSphere& sp : s.spheres)
      for (const RockBox& rock : s.world.rocks()) {
        Vector3d n;
        g[r++] = rockDistance(rock, gk.act(sp.center), n) - sp.radius;
      }
    for (const Vector3d& p : heli_.contactPoints()) g[r++] = gk.act(p).z();
  }
  return g;
}

void HeliDmoc::jacobian(const Eigen::VectorXd& x, std::vector<Eigen::Triplet<double>>& out) const {
  const HeliDmocSpec& s = spec_;
  const double h = s.h, m = s.heli.mass;
  out.clear();
  const ImplicitWrench fEnd = endWrench(false);
  std::vector<Matrix3d> Jr(s.N + 1);  // R = Rbar exp(theta): body perturbation = dexp_{-theta} dtheta
  for (int k = 0; k <= s.N; ++k) Jr[k] = so3::dexp(-x.segment<3>(kBlock * k));
  for (int k = 0; k < s.N; ++k) {
    const int ck = kBlock * k, ck1 = kBlock * (k + 1), row = 12 * k;
    const se3::Pose gk = pose(x, k), gk1 = pose(x, k + 1);
    const Vector6d xi = twist(x, k);
    Matrix6d dPrev = Matrix6d::Zero();
    Eigen::Matrix<double, 6, 3> fTheta;
    Eigen::Matrix<double, 6, 4> fU;
    const Vector6d b = leftMomentum(x, k, &dPrev) + h * nodeWrench(gk, control(x, k), &fTheta, &fU);
    const LgviResidual res = lgviResidual(inertia_, s.lgvi, gk, k * h, h, b, xi, fEnd, true, true);
    // eq. (10) rows / m: r = C^T II xi - mu^-(xi_{k-1}) - h f(R_k, u_k) - h Tr f^+(g_k, xi_k)
    addBlock(out, row, ck, Matrix3d((res.dPose.leftCols<3>() - h * fTheta).topRows<3>() * Jr[k] / m));
    addBlock(out, row + 3, ck, Matrix3d((res.dPose.leftCols<3>() - h * fTheta).bottomRows<3>() * Jr[k] / m));
    addBlock(out, row, ck + 3, Eigen::Matrix<double, 6, 3>(res.dPose.rightCols<3>() * gk.R.transpose() / m));
    addBlock(out, row, ck + 6, Matrix6d(res.dXi / m));
    addBlock(out, row, ck + 12, Eigen::Matrix<double, 6, 4>(-h * fU * uScale_.asDiagonal() / m));
    if (k > 0) addBlock(out, row, ck - kBlock + 6, Matrix6d(-dPrev / m));
    // eq. (9) rows: vee(E - E^T)/2 with E = (R_k dR)^T R_{k+1}; x_{k+1} - x_k - h R_k v_k.
    dmoc::addPoseRowsJacobian(out, row + 6, ck, ck1, s.lgvi, h, gk, xi, gk1, Jr[k], Jr[k + 1]);
  }
  for (int k = 0; k + 1 < s.N; ++k)
    for (int i = 0; i < 4; ++i) {
      out.emplace_back(rateRow0() + 4 * k + i, kBlock * (k + 1) + 12 + i, 1.0);
      out.emplace_back(rateRow0() + 4 * k + i, kBlock * k + 12 + i, -1.0);
    }
  if (!s.withWorld) return;
  for (int k = 2; k <= lastClearanceNode(); ++k) {
    int r = clearanceRow0() + (k - 2) * rowsPerNode();
    const int ck = kBlock * k;
    const se3::Pose gk = pose(x, k);
    // point p = x + R c: dp/dtheta = -R c^ Jr, dp/dx = I
    for (const BoundingSphere& sp : s.spheres) {
      const Matrix3d dpTheta = -gk.R * so3::hat(sp.center) * Jr[k];
      for (const RockBox& rock : s.world.rocks()) {
        Vector3d n;
        rockDistance(rock, gk.act(sp.center), n);
        addBlock(out, r, ck, Eigen::RowVector3d(n.transpose() * dpTheta));
        addBlock(out, r++, ck + 3, Eigen::RowVector3d(n.transpose()));
      }
    }
    for (const Vector3d& p : heli_.contactPoints()) {
      addBlock(out, r, ck, Eigen::RowVector3d((-gk.R * so3::hat(p) * Jr[k]).row(2)));
      out.emplace_back(r++, ck + 5, 1.0);
    }
  }
}

double HeliDmoc::dynResidual(const Eigen::VectorXd& x, int k) const {
  return segmentRows(x, k, true).lpNorm<Eigen::Infinity>();
}

double HeliDmoc::nodeEffort(const RotorState& u) const {
  const Eigen::Vector4d d = Eigen::Vector4d(u.collective, u.yaw, u.pitch, u.roll).cwiseQuotient(uScale_) - uTrim_;
  return spec_.h * d.dot(W_.cwiseProduct(d));
}

double HeliDmoc::sphereClearance(const se3::Pose& gk) const {
  double c = kNlpInfinity;
  for (const BoundingSphere& sp : spec_.spheres)
    for (const RockBox& rock : spec_.world.rocks()) {
      Vector3d n;
      c = std::min(c, rockDistance(rock, gk.act(sp.center), n) - sp.radius);
    }
  return c;
}

double HeliDmoc::groundClearance(const Eigen::VectorXd& x, int k) const {
  double c = kNlpInfinity;
  const se3::Pose gk = pose(x, k);
  for (const Vector3d& p : heli_.contactPoints()) c = std::min(c, gk.act(p).z());
  return c;
}

}  // namespace varsim
