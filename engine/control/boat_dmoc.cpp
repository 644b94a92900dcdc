// engine/control/boat_dmoc.cpp — rows, sparse Jacobian, cost and initial guess of the boat DMOC (boat_dmoc.h). The
// dynamics rows evaluate the stepper's pure functions (lgvi_se3.h) with the boat's own wrenches (boat.h); what is
// written here is their chain rule through the chart R = Rbar exp(theta^).
#include "engine/control/boat_dmoc.h"

#include <cmath>
#include <string>

#include "engine/control/boat_dmoc_hull_jet.h"
#include "engine/control/dmoc_blocks.h"
#include "engine/lie/so3.h"
#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {

namespace {

using dmoc::addBlock;
using dmoc::Triplets;

}  // namespace

BoatDmoc::BoatDmoc(BoatDmocSpec spec) : spec_(std::move(spec)), boat_(spec_.boat), water_(spec_.water) {
  const BoatDmocSpec& s = spec_;
  if (s.N < 2) throw BadInput("boat plan: N = " + std::to_string(s.N) + ": allowed >= 2");
  if (s.lgvi.group != LgviGroup::SO3xR3) throw BadInput("boat plan: key 'group' = se3: allowed so3xr3");
  if (s.boat.pressure != 0.0)
    throw BadInput("boat plan: key 'pressure' = " + formatNumber(s.boat.pressure) + ": allowed 0");
  if (!(s.weightThrust > 0.0 && std::isfinite(s.weightThrust)))
    throw BadInput("boat plan: weight_thrust = " + formatNumber(s.weightThrust) + ": allowed (0, inf)");
  if (!(s.boat.thrustMax > 0.0)) throw BadInput("boat plan: key 'thrust_max' must be > 0");
  inertia_ = principalInertia(s.boat.mass, boat_.principalInertia());
  Rbar_.resize(s.N + 1);
  const double psi0 = std::atan2(s.start.R(1, 0), s.start.R(0, 0));
  for (int k = 0; k <= s.N; ++k) {
    const double a = double(k) / s.N, sm = a * a * (3.0 - 2.0 * a);
    Rbar_[k] = dmoc::yawMatrix(psi0 + sm * std::remainder(s.dockHeading - psi0, 2.0 * M_PI));
  }
  Rbar_[0] = s.start.R;
  Rbar_[s.N] = dmoc::yawMatrix(s.dockHeading);
  // The stepper's start (lgvi_se3.h initialize): mu^-_0 = II xi(0) - (h/2) f_0.
  muMinus0_ = generalizedInertia(inertia_) * s.xi0 - 0.5 * s.h * nodeThrust(s.start, 0.0, s.u0);
}

se3::Pose BoatDmoc::pose(const Eigen::VectorXd& x, int k) const {
  return {Rbar_[k] * so3::exp(x.segment<3>(kBlock * k)), x.segment<3>(kBlock * k + 3)};
}
Eigen::Vector2d BoatDmoc::thrust(const Eigen::VectorXd& x, int k) const {
  return spec_.boat.thrustMax * x.segment<2>(kBlock * k + 12);
}
void BoatDmoc::setThrust(Eigen::VectorXd& x, int k, const Eigen::Vector2d& u) const {
  x.segment<2>(kBlock * k + 12) = u / spec_.boat.thrustMax;
}

BoatNodeData BoatDmoc::nodeData(const se3::Pose& g, double t) const {
  BoatNodeData n;
  computeHydrostatics(boat_.patches(), g, water_, t, n.hydro);
  n.eta = boat_.waterVelocities(g, t, water_, n.hydro);
  return n;
}

// Boat::thrustWrench takes (u_r, u_l) (its control matrix order); the plan holds (u_left, u_right) like the scene.
Vector6d BoatDmoc::nodeThrust(const se3::Pose& g, double t, const Eigen::Vector2d& u) const {
  return boat_.thrustWrench(g, t, water_, Eigen::Vector2d(u.y(), u.x()));
}

Vector6d BoatDmoc::leftMomentum(const Eigen::VectorXd& x, int k, Matrix6d* dPrev) const {
  if (k == 0) return muMinus0_;
  return lgviNextMomentum(inertia_, spec_.lgvi, spec_.h, twist(x, k - 1), dPrev);
}

// eq. (10) at node pose gk with its node data nd.
Vector6d BoatDmoc::momentumRows(const se3::Pose& gk, double tk, const Vector6d& muMinus, const Eigen::Vector2d& u,
                                const Vector6d& xi, const BoatNodeData& nd, LgviResidual* full) const {
  HydrostaticState scratch;
  const ImplicitWrench fEnd = [&](const se3::Pose& g, const Vector6d& v, double t, ImplicitWrenchJacobian* jac) {
    BoatWrench w;
    return boat_.endOfStepWrench(g, v, nd.hydro, nd.eta, water_, t, scratch, w, jac ? &jac->dPose : nullptr,
                                 jac ? &jac->dXi : nullptr);
  };
  const double h = spec_.h;
  const Vector6d b = muMinus + h * nodeThrust(gk, tk, u);
  const LgviResidual res = lgviResidual(inertia_, spec_.lgvi, gk, tk, h, b, xi, fEnd, full != nullptr, full != nullptr);
  if (full) *full = res;
  return res.r;
}

Eigen::Matrix<double, 12, 1> BoatDmoc::segmentRows(const Eigen::VectorXd& x, int k) const {
  const double h = spec_.h;
  const se3::Pose gk = pose(x, k), gk1 = pose(x, k + 1);
  const Vector6d r = momentumRows(gk, k * h, leftMomentum(x, k, nullptr), thrust(x, k), twist(x, k),
                                  nodeData(gk, k * h), nullptr);
  Eigen::Matrix<double, 12, 1> out;
  out << r / spec_.boat.mass, dmoc::poseRows(spec_.lgvi, h, gk, twist(x, k), gk1);
  return out;
}

Eigen::VectorXd BoatDmoc::constraints(const Eigen::VectorXd& x) const {
  Eigen::VectorXd g(numConstraints());
  for (int k = 0; k < spec_.N; ++k) g.segment<12>(12 * k) = segmentRows(x, k);
  return g;
}

// d(momentum rows of segment k, not divided by m)/d(theta_k, x_k, xi_k, u_k) (columns in the block's order) and, if
// asked, d/dxi_{k-1} through mu^-_k.
Eigen::Matrix<double, 6, 14> BoatDmoc::momentumLocalJacobian(const Eigen::VectorXd& x, int k, Matrix6d* dPrev) const {
  const BoatDmocSpec& s = spec_;
  const double h = s.h;
  const se3::Pose gk = pose(x, k);
  const Vector6d xi = twist(x, k);
  const Eigen::Vector2d u = thrust(x, k);
  const Vector6d mu = leftMomentum(x, k, dPrev);
  LgviResidual res;
  const BoatNodeData node = nodeData(gk, k * h);
  momentumRows(gk, k * h, mu, u, xi, node, &res);
  Eigen::Matrix<double, 6, 14> J;
  if (water_.still()) {
    // Total body-perturbation partial: the end pose's (exact, res.dPose) + the frozen node data's.
    const Matrix6d dPose = res.dPose + nodeDataPartialStill(gk, xi, u, node);
    J.leftCols<3>() = dPose.leftCols<3>() * so3::dexp(-x.segment<3>(kBlock * k));
    J.middleCols<3>(3) = dPose.rightCols<3>() * gk.R.transpose();
  } else {
    // Under waves: r depends on (theta_k, x_k) through -h f_k (immersion) and -h Tr f^+ (end pose and node data):
    // the first derivatives of the jets of the boat's own routines (boat_dmoc_hull_jet.h).
    const BoatHullJets j = boatHullJets(boat_, water_, s.lgvi, h, k * h, Rbar_[size_t(k)], x.segment<3>(kBlock * k),
                                        x.segment<3>(kBlock * k + 3), xi);
    const Eigen::Matrix<double, 6, 2> F = boat_.controlMatrix();  // columns (right, left); u = (left, right)
    for (int i = 0; i < 6; ++i) J.row(i).head<6>() = -h * j.endWrench[size_t(i)].g.head<6>().transpose();
    J.leftCols<6>() -= h * (F.col(0) * (u.y() * j.immersion[0].g.transpose()) +
                            F.col(1) * (u.x() * j.immersion[1].g.transpose()));
  }
  J.middleCols<6>(6) = res.dXi;
  // Thrust is linear in u: columns are unit thrusts (left, right) * thrustMax.
  J.col(12) = -h * nodeThrust(gk, k * h, Eigen::Vector2d(s.boat.thrustMax, 0.0));
  J.col(13) = -h * nodeThrust(gk, k * h, Eigen::Vector2d(0.0, s.boat.thrustMax));
  return J;
}

void BoatDmoc::jacobian(const Eigen::VectorXd& x, std::vector<Eigen::Triplet<double>>& out) const {
  const BoatDmocSpec& s = spec_;
  const double h = s.h, m = s.boat.mass;
  out.clear();
  for (int k = 0; k < s.N; ++k) {
    const int ck = kBlock * k, ck1 = kBlock * (k + 1), row = 12 * k;
    const se3::Pose gk = pose(x, k), gk1 = pose(x, k + 1);
    const Matrix3d Jr = so3::dexp(-x.segment<3>(ck)), Jr1 = so3::dexp(-x.segment<3>(ck1));
    Matrix6d dPrev = Matrix6d::Zero();
    const Eigen::Matrix<double, 6, 14> J = momentumLocalJacobian(x, k, &dPrev);
    addBlock(out, row, ck, Eigen::Matrix<double, 6, 3>(J.leftCols<3>() / m));
    addBlock(out, row, ck + 3, Eigen::Matrix<double, 6, 3>(J.middleCols<3>(3) / m));
    addBlock(out, row, ck + 6, Matrix6d(J.middleCols<6>(6) / m));
    addBlock(out, row, ck + 12, Eigen::Matrix<double, 6, 2>(J.rightCols<2>() / m));
    if (k > 0) addBlock(out, row, ck - kBlock + 6, Matrix6d(-dPrev / m));
    dmoc::addPoseRowsJacobian(out, row + 6, ck, ck1, s.lgvi, h, gk, twist(x, k), gk1, Jr, Jr1);  // eq. (9)
  }
}

// The node pose enters b = mu^- + h f_k (thrust immersion) and, through the exposures, the drag in f^+ at the end
// pose g_{k+1} = g_k tau(h xi) with xi^+ = (w, tau^T v): r = ... - b - h Tr f^+ with Tr = diag(tau, tau) (lgvi_se3.h).
Matrix6d BoatDmoc::nodeDataPartialStill(const se3::Pose& gk, const Vector6d& xi, const Eigen::Vector2d& u,
                                        const BoatNodeData& node) const {
  const double h = spec_.h;
  se3::Pose T;
  const se3::Pose gEnd = lgviNextPose(spec_.lgvi, gk, h, xi, &T);
  Vector6d xiPlus = xi;
  xiPlus.tail<3>() = T.R.transpose() * xi.tail<3>();
  const Matrix6d dDrag = boat_.patchWrenchExposureJacobian(
      gEnd.R, xiPlus, node.hydro, node.eta, patchExposureDerivatives(boat_.patches(), gk, node.hydro));
  Matrix6d out = -h * boat_.thrustPoseJacobian(gk, Eigen::Vector2d(u.y(), u.x()));  // (u_r, u_l) as thrustWrench
  out.topRows<3>() -= h * T.R * dDrag.topRows<3>();
  out.bottomRows<3>() -= h * T.R * dDrag.bottomRows<3>();
  return out;
}

void BoatDmoc::bounds(Eigen::VectorXd& xL, Eigen::VectorXd& xU, Eigen::VectorXd& gL, Eigen::VectorXd& gU) const {
  const BoatDmocSpec& s = spec_;
  const int n = numVariables();
  xL = Eigen::VectorXd::Constant(n, -kNlpInfinity);
  xU = Eigen::VectorXd::Constant(n, kNlpInfinity);
  for (int k = 0; k < s.N; ++k) {
    xL.segment<2>(kBlock * k + 12).setZero();
    xU.segment<2>(kBlock * k + 12).setOnes();
  }
  xL.segment<3>(0).setZero(), xU.segment<3>(0).setZero();  // theta_0 = 0: R_0 = start
  xL.segment<3>(3) = xU.segment<3>(3) = s.start.x;
  xL.segment<2>(12) = xU.segment<2>(12) = s.u0 / s.boat.thrustMax;
  const int cN = kBlock * s.N, cL = kBlock * (s.N - 1);
  xL[cN + 2] = xU[cN + 2] = 0.0;  // heading of node N = the dock's (theta_z around dmoc::yawMatrix(dockHeading))
  xL.segment<2>(cN + 3) = xU.segment<2>(cN + 3) = s.dock;
  xL.segment<6>(cL + 6).setZero(), xU.segment<6>(cL + 6).setZero();  // at rest
  gL = gU = Eigen::VectorXd::Zero(numConstraints());
}

Eigen::VectorXd BoatDmoc::initialGuess() const {
  const BoatDmocSpec& s = spec_;
  Eigen::VectorXd x = Eigen::VectorXd::Zero(numVariables());
  for (int k = 0; k <= s.N; ++k) {
    const double a = double(k) / s.N, sm = a * a * (3.0 - 2.0 * a);
    x.segment<2>(kBlock * k + 3) = (1.0 - sm) * s.start.x.head<2>() + sm * s.dock;
    x[kBlock * k + 5] = s.start.x.z();
  }
  for (int k = 0; k < s.N; ++k) {
    const se3::Pose gk = pose(x, k), gk1 = pose(x, k + 1);
    Vector6d xi;
    xi << so3::log(gk.R.transpose() * gk1.R) / s.h, gk.R.transpose() * (gk1.x - gk.x) / s.h;
    x.segment<6>(kBlock * k + 6) = k + 1 < s.N ? xi : Vector6d::Zero();
    setThrust(x, k, k == 0 ? s.u0 : Eigen::Vector2d::Constant(0.2 * s.boat.thrustMax));
  }
  return x;
}

DmocLayout BoatDmoc::layout() const {
  const int N = spec_.N, cN = kBlock * N, cL = kBlock * (N - 1);
  DmocLayout l;
  l.N = N;
  l.h = spec_.h;
  for (int k = 0; k < N; ++k) l.controls.push_back({kBlock * k + 12, kBlock * k + 13});
  l.controlWeights = Eigen::Vector2d::Constant(spec_.weightThrust);
  l.terminal = {cN + 2, cN + 3, cN + 4};
  for (int i = 0; i < 6; ++i) l.terminal.push_back(cL + 6 + i);
  l.target = Eigen::VectorXd::Zero(9);
  l.target.segment<2>(1) = spec_.dock;
  return l;
}

double BoatDmoc::objective(const Eigen::VectorXd& x) const {
  double f = 0.0;
  for (int k = 0; k < spec_.N; ++k) f += x.segment<2>(kBlock * k + 12).squaredNorm();
  return spec_.weightThrust * spec_.h * f;
}

Eigen::VectorXd BoatDmoc::gradient(const Eigen::VectorXd& x) const {
  Eigen::VectorXd g = Eigen::VectorXd::Zero(numVariables());
  for (int k = 0; k < spec_.N; ++k)
    g.segment<2>(kBlock * k + 12) = 2.0 * spec_.weightThrust * spec_.h * x.segment<2>(kBlock * k + 12);
  return g;
}

}  // namespace varsim
