// tests/test_boat_derivatives.cpp — the boat's hull wrench derivatives, which the implicit hull step (Newton) and
// the boat's plan (engine/control/boat_dmoc.h, its Jacobian) differentiate through: gravity + buoyancy in the pose,
// damping and wind drag in the twist and attitude, against central differences; and the wind drag's exposure kink
// rounded off so the drag is differentiable in the heading into the wind (the boat plan stalled on the kink).
#include <doctest/doctest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "engine/control/jet2.h"
#include "engine/lie/so3.h"
#include "engine/models/boat.h"
#include "engine/models/boat_wrench_generic.h"

using namespace varsim;

TEST_CASE("HydrostaticWrenchPoseDerivativeMatchesFiniteDifferences") {
  // d(gravity + buoyancy)/d eps for g exp(eps^) (the Jacobian the implicit step needs) against central
  // differences, in still water and in waves, for heeled, trimmed and heaved poses around the waterline.
  BoatSettings bs;
  bs.mass = 700.0;
  bs.patchSize = 0.45;
  const Boat boat(bs);
  WaveSettings ws;
  ws.amplitude = 0.25;
  ws.wavelength = 8.0;
  ws.direction = 0.3;
  ws.gridSpacing = 0.4;
  const WaterSurface waters[2] = {WaterSurface(), WaterSurface(ws)};
  double worst = 0.0;
  int tested = 0;
  for (const WaterSurface& water : waters)
    for (int trial = 0; trial < 12; ++trial) {
      se3::Pose g;
      g.R = (Eigen::AngleAxisd(0.5 * trial, Vector3d::UnitZ()) *
             Eigen::AngleAxisd(0.04 * trial - 0.2, Vector3d::UnitY()) *
             Eigen::AngleAxisd(0.5 - 0.09 * trial, Vector3d::UnitX()))
                .toRotationMatrix();
      g.x = Vector3d(0.7 * trial, -0.3 * trial, 0.05 * (trial % 5) - 0.1);
      HydrostaticState hs;
      computeHydrostatics(boat.patches(), g, water, 2.1, hs);
      BoatWrench w;
      Matrix6d D;
      boat.hydrostaticWrench(g, hs, w, &D);
      Matrix6d fd;
      const double delta = 1e-6;
      for (int j = 0; j < 6; ++j) {
        Vector6d val[2];
        for (int sgn = 0; sgn < 2; ++sgn) {
          Vector6d eps = Vector6d::Zero();
          eps[j] = sgn ? -delta : delta;
          const se3::Pose gp = g * se3::exp(eps);
          HydrostaticState hp;
          computeHydrostatics(boat.patches(), gp, water, 2.1, hp);
          BoatWrench wp;
          boat.hydrostaticWrench(gp, hp, wp);
          val[sgn] = wp.hydrostatic();
        }
        fd.col(j) = (val[0] - val[1]) / (2.0 * delta);
      }
      worst = std::max(worst, (fd - D).cwiseAbs().maxCoeff() / D.cwiseAbs().maxCoeff());
      ++tested;
    }
  MESSAGE("hydrostatic wrench pose Jacobian vs central differences, " << tested << " poses: max relative error "
                                                                      << worst);
  CHECK(worst < 1e-6);
}

TEST_CASE("PatchWrenchVelocityAndAttitudeDerivativesMatchFiniteDifferences") {
  // Damping (eq. (15)) and wind drag with frozen exposure and water velocity: d/d xi and d/d theta.
  BoatSettings bs;
  bs.patchSize = 0.5;
  bs.wind = Vector3d(7.0, -4.0, 1.0);
  bs.damping = Vector3d(40.0, 400.0, 500.0);
  bs.pressure = 150.0;
  const Boat boat(bs);
  WaveSettings ws;
  ws.amplitude = 0.2;
  ws.current = Vector3d(0.4, 0.2, 0.0);
  const WaterSurface water(ws);
  se3::Pose g;
  g.R = (Eigen::AngleAxisd(0.6, Vector3d::UnitZ()) * Eigen::AngleAxisd(0.15, Vector3d::UnitX())).toRotationMatrix();
  g.x = Vector3d(1.0, 2.0, 0.1);
  HydrostaticState hs;
  computeHydrostatics(boat.patches(), g, water, 0.7, hs);
  const std::vector<Vector3d> eta = boat.waterVelocities(g, 0.7, water, hs);
  Vector6d xi;
  xi << 0.3, -0.2, 0.5, 1.5, -0.7, 0.4;
  BoatWrench w;
  Matrix6d dXi;
  Eigen::Matrix<double, 6, 3> dTheta;
  boat.patchWrenches(g.R, xi, hs, eta, w, &dXi, &dTheta);
  const auto loads = [&](const Matrix3d& R, const Vector6d& x) {
    BoatWrench b;
    boat.patchWrenches(R, x, hs, eta, b);
    return Vector6d(b.hydrodynamic + b.wind);
  };
  const double delta = 1e-6;
  Matrix6d fdXi;
  Eigen::Matrix<double, 6, 3> fdTheta;
  for (int j = 0; j < 6; ++j) {
    const Vector6d e = delta * Vector6d::Unit(j);
    fdXi.col(j) = (loads(g.R, xi + e) - loads(g.R, xi - e)) / (2.0 * delta);
    if (j < 3) {
      const Matrix3d Rp = g.R * so3::exp(e.head<3>()), Rm = g.R * so3::exp(-e.head<3>());
      fdTheta.col(j) = (loads(Rp, xi) - loads(Rm, xi)) / (2.0 * delta);
    }
  }
  const double errXi = (fdXi - dXi).cwiseAbs().maxCoeff() / dXi.cwiseAbs().maxCoeff();
  const double errTheta = (fdTheta - dTheta).cwiseAbs().maxCoeff() / dTheta.cwiseAbs().maxCoeff();
  MESSAGE("patch loads: d/dxi relative error " << errXi << ", d/dtheta " << errTheta);
  CHECK(errXi < 1e-7);
  CHECK(errTheta < 1e-7);
  CHECK(w.windPower != 0.0);
  CHECK(w.waterPower != 0.0);
  // The drag part of the damping Jacobian is symmetric negative semidefinite (pure dissipation).
  Matrix6d damp;
  BoatSettings calm = bs;
  calm.wind.setZero();
  Boat(calm).patchWrenches(g.R, xi, hs, eta, w, &damp);
  CHECK((damp - damp.transpose()).cwiseAbs().maxCoeff() < 1e-9 * damp.cwiseAbs().maxCoeff());
  CHECK(Eigen::SelfAdjointEigenSolver<Matrix6d>(damp).eigenvalues().maxCoeff() < 1e-9 * damp.norm());
}

// The wind drag's face exposure max(0, -n . rel) has a kink where a face turns tangent to the wind: for a boat heading
// into the wind the sides are tangent, and the drag is ~|yaw| there (the boat DMOC stalled on it, Ipopt dual
// infeasibility 0.034 in every node's yaw). BoatSettings::windExposureBand rounds it over |n . rel| < eps: the wrench
// is then differentiable in the heading, and differs from the hard max by at most k eps / 4 |rel| per dry patch.
TEST_CASE("WindDragIsDifferentiableInTheHeadingIntoTheWind") {
  BoatSettings bs;
  bs.patchSize = 0.5;
  bs.wind = Vector3d(-8.0, 0.0, 0.0);
  const WaterSurface water{WaveSettings{0.0}};
  const auto windAt = [&](const BoatSettings& settings, double yaw) {
    const Boat boat(settings);
    se3::Pose g;
    g.x.z() = boat.equilibriumHeight();
    HydrostaticState hs;
    computeHydrostatics(boat.patches(), g, water, 0.0, hs);  // exposure at heading 0, frozen (as in a step)
    BoatWrench w;
    boat.patchWrenches(so3::exp(Vector3d(0.0, 0.0, yaw)), Vector6d::Zero(), hs, boat.waterVelocities(g, 0.0, water, hs),
                       w);
    return Vector6d(w.wind);
  };
  const auto slopeJump = [&](const BoatSettings& settings) {  // one-sided yaw slopes of the wind force x at yaw 0
    const double d = 1e-5;
    const double right = (windAt(settings, d)[3] - windAt(settings, 0.0)[3]) / d;
    const double left = (windAt(settings, 0.0)[3] - windAt(settings, -d)[3]) / d;
    return std::abs(right - left);
  };
  BoatSettings hard = bs;
  hard.windExposureBand = 0.0;
  const double jumpHard = slopeJump(hard), jumpSmooth = slopeJump(bs);
  MESSAGE("d(wind force x)/d yaw jump at heading into the wind: hard max "
          << jumpHard << " N/rad, eps = " << bs.windExposureBand << " m/s: " << jumpSmooth << " N/rad");
  CHECK(jumpHard > 10.0);  // the kink: 2 k 8^2 per side face
  CHECK(jumpSmooth < 1e-3 * jumpHard);
  // Size of the change: at most k eps / 4 |rel| per dry patch, k = 1/2 rho_a C_d A_dry (A_dry <= the hull's area).
  const Vector3d& L = bs.hullSize;
  const double area = 2.0 * (L.x() * L.y() + L.y() * L.z() + L.z() * L.x());
  const double bound = 0.5 * bs.airDensity * bs.windDrag * area * bs.windExposureBand / 4.0 * bs.wind.norm();
  for (double yaw : {0.0, 0.003, 0.3, 1.2}) {
    const double diff = (windAt(bs, yaw) - windAt(hard, yaw)).tail<3>().norm();
    CHECK(diff <= bound);
    // Largest relative change heading straight into the wind (0.75 N of 45 N: deck and sides in the band).
    CHECK(diff <= 0.02 * windAt(hard, yaw).tail<3>().norm());
  }
}

TEST_CASE("PatchExposureThrustAndNodeDragDerivativesMatchFiniteDifferences") {
  // Still water: the waterline transport of each patch's wet area and first moment (patch_exposure_derivative.h), the
  // drag's partial in those frozen exposures and the thrusters' immersion slope, against central differences of the
  // clipping itself, on heeled, trimmed and heaved poses that put the waterline across many patches.
  BoatSettings bs;
  bs.patchSize = 0.45;
  bs.wind = Vector3d(6.0, 3.0, 0.0);
  const Boat boat(bs);
  WaveSettings ws;
  ws.amplitude = 0.0;
  ws.current = Vector3d(0.3, -0.2, 0.0);
  const WaterSurface water(ws);
  const Vector6d xi = (Vector6d() << 0.2, -0.1, 0.3, 1.5, -0.4, 0.2).finished();
  const Matrix3d Rdrag = Eigen::AngleAxisd(0.7, Vector3d::UnitZ()).toRotationMatrix();
  const double e = 1e-6;
  double worstArea = 0.0, worstFirst = 0.0, worstDrag = 0.0, worstThrust = 0.0;
  int crossed = 0;
  for (int trial = 0; trial < 8; ++trial) {
    se3::Pose g;
    g.R = (Eigen::AngleAxisd(0.8 * trial, Vector3d::UnitZ()) * Eigen::AngleAxisd(0.03 * trial - 0.1, Vector3d::UnitY()) *
           Eigen::AngleAxisd(0.25 - 0.06 * trial, Vector3d::UnitX()))
              .toRotationMatrix();
    g.x = Vector3d(0.5 * trial, -0.2 * trial, boat.equilibriumHeight() + 0.03 * (trial % 3) - 0.03);
    HydrostaticState hs;
    computeHydrostatics(boat.patches(), g, water, 0.0, hs);
    const auto d = patchExposureDerivatives(boat.patches(), g, hs);
    const std::vector<Vector3d> eta(boat.patches().size(), ws.current);
    const Matrix6d dDrag = boat.patchWrenchExposureJacobian(Rdrag, xi, hs, eta, d);
    const Eigen::Vector2d u(900.0, 1300.0);
    se3::Pose gt = g;  // sink the stern until the thrusters sit inside their immersion ramp
    gt.x.z() = 0.35;
    const Matrix6d dThrust = boat.thrustPoseJacobian(gt, u);
    for (int j = 0; j < 6; ++j) {
      const auto moved = [&](const se3::Pose& base, double sgn) {
        se3::Pose p = base;
        if (j < 3) p.R = base.R * so3::exp(sgn * e * Vector3d::Unit(j));
        else p.x = base.x + sgn * e * base.R.col(j - 3);
        return p;
      };
      HydrostaticState hp, hm;
      computeHydrostatics(boat.patches(), moved(g, 1.0), water, 0.0, hp);
      computeHydrostatics(boat.patches(), moved(g, -1.0), water, 0.0, hm);
      for (size_t i = 0; i < hs.patches.size(); ++i) {
        const auto& P = hp.patches[i];
        const auto& M = hm.patches[i];
        const double dA = (P.wetArea - M.wetArea) / (2.0 * e);
        const Vector3d dF = (P.wetArea * P.wetCentroid - M.wetArea * M.wetCentroid) / (2.0 * e);
        worstArea = std::max(worstArea, std::abs(dA - d[i].area(j)));
        worstFirst = std::max(worstFirst, (dF - d[i].first.col(j)).lpNorm<Eigen::Infinity>());
        if (j == 0 && !d[i].area.isZero()) ++crossed;
      }
      BoatWrench wp, wm;
      boat.patchWrenches(Rdrag, xi, hp, eta, wp);
      boat.patchWrenches(Rdrag, xi, hm, eta, wm);
      const Vector6d fd = (wp.hydrodynamic + wp.wind - wm.hydrodynamic - wm.wind) / (2.0 * e);
      worstDrag = std::max(worstDrag, (fd - dDrag.col(j)).lpNorm<Eigen::Infinity>() / std::max(1.0, fd.norm()));
      const Vector6d ft = (boat.thrustWrench(moved(gt, 1.0), 0.0, water, u) -
                           boat.thrustWrench(moved(gt, -1.0), 0.0, water, u)) / (2.0 * e);
      worstThrust = std::max(worstThrust, (ft - dThrust.col(j)).lpNorm<Eigen::Infinity>() / std::max(1.0, ft.norm()));
    }
  }
  MESSAGE("patches crossed by the waterline: " << crossed << "; worst |dA| error " << worstArea << " m^2, |dF| "
                                                << worstFirst << " m^3, drag rel " << worstDrag << ", thrust rel "
                                                << worstThrust);
  CHECK(crossed > 50);
  CHECK(worstArea < 1e-7);
  CHECK(worstFirst < 1e-7);
  CHECK(worstDrag < 1e-6);
  CHECK(worstThrust < 1e-6);
  CHECK(boat.thrustPoseJacobian(se3::Pose{Matrix3d::Identity(), Vector3d(0.0, 0.0, boat.equilibriumHeight())},
                                Eigen::Vector2d(900.0, 1300.0))
            .isZero());  // upright at rest: both thrusters fully immersed, the ramp is clamped
}

TEST_CASE("TheWrenchRoutinesOnJetsGiveTheSimulatorsValuesAndTheAnalyticFirstDerivatives") {
  // One code path (boat_wrench_generic.h, hull_hydrostatics_generic.h): the planner's jet instance of the routines
  // against the simulator's double instance at the same poses (values), and its gradient in a body perturbation
  // (R exp(theta^), x + R u) against the analytic first derivatives the implicit step uses (hydrostaticDerivative,
  // Boat::hydrostaticWrench's dPose, patchWrenches' dXi), in still water and in waves.
  using J = Jet2<12>;
  BoatSettings bs;
  bs.patchSize = 0.45;
  bs.wind = Vector3d(6.0, 3.0, 0.0);
  const Boat boat(bs);
  WaveSettings ws;
  ws.amplitude = 0.25;
  ws.wavelength = 8.0;
  ws.gridSpacing = 0.4;
  ws.current = Vector3d(0.3, -0.2, 0.0);
  const WaterSurface waters[2] = {WaterSurface(), WaterSurface(ws)};
  const Vector6d xi = (Vector6d() << 0.2, -0.1, 0.3, 1.5, -0.4, 0.2).finished();
  double worstValue = 0.0, worstPose = 0.0, worstTwist = 0.0;
  for (const WaterSurface& water : waters)
    for (int trial = 0; trial < 4; ++trial) {
      se3::Pose g;
      g.R = (Eigen::AngleAxisd(0.8 * trial, Vector3d::UnitZ()) * Eigen::AngleAxisd(0.05 * trial - 0.1, Vector3d::UnitY()) *
             Eigen::AngleAxisd(0.2 - 0.07 * trial, Vector3d::UnitX()))
                .toRotationMatrix();
      g.x = Vector3d(0.6 * trial, -0.3 * trial, boat.equilibriumHeight() + 0.04 * (trial % 3) - 0.04);
      // First-order jets of the pose (theta = 0..2, u = 3..5) and of the twist (6..11).
      Mat3<J> dR;
      Vec3<J> th, u;
      Vec6<J> xij;
      for (int i = 0; i < 3; ++i) th[i] = J::variable(0.0, i), u[i] = J::variable(0.0, 3 + i);
      for (int i = 0; i < 6; ++i) xij[i] = J::variable(xi[i], 6 + i);
      dR << J(1.0), -th[2], th[1], th[2], J(1.0), -th[0], -th[1], th[0], J(1.0);
      const Mat3<J> R = g.R * dR;
      const Vec3<J> x = g.x + g.R * u;
      HydrostaticStateT<J> hj;
      computeHydrostaticsT(boat.patches(), R, x, water, 1.3, hj);
      BoatWrenchT<J> wj;
      boat.hydrostaticWrenchT(R, x, hj, wj);
      boat.patchWrenchesT(R, xij, hj, boat.waterVelocitiesT(R, x, 1.3, water, hj), wj);
      HydrostaticState hs;
      computeHydrostatics(boat.patches(), g, water, 1.3, hs);
      BoatWrench w;
      Matrix6d dPose, dXi;
      boat.hydrostaticWrench(g, hs, w, &dPose);
      boat.patchWrenches(g.R, xi, hs, boat.waterVelocities(g, 1.3, water, hs), w, &dXi);
      const Vec6<J> fj = wj.hydrostatic() + wj.hydrodynamic + wj.wind;
      const Vector6d f = w.hydrostatic() + w.hydrodynamic + w.wind;
      const double scale = f.lpNorm<Eigen::Infinity>();
      for (int i = 0; i < 6; ++i) {
        worstValue = std::max(worstValue, std::abs(fj[i].v - f[i]) / scale);
        const Eigen::Matrix<double, 1, 6> dHydrostatic =
            (wj.hydrostatic()[i].g.head<6>()).transpose();  // the hydrostatic wrench's whole pose derivative
        worstPose = std::max(worstPose, (dHydrostatic - dPose.row(i)).lpNorm<Eigen::Infinity>() /
                                            dPose.lpNorm<Eigen::Infinity>());
        const Eigen::Matrix<double, 1, 6> dTwist = (wj.hydrodynamic[i] + wj.wind[i]).g.tail<6>().transpose();
        worstTwist = std::max(worstTwist, (dTwist - dXi.row(i)).lpNorm<Eigen::Infinity>() / dXi.lpNorm<Eigen::Infinity>());
      }
    }
  MESSAGE("jets vs double: values " << worstValue << ", d(gravity + buoyancy)/d pose " << worstPose
                                    << ", d(drag + wind)/d xi " << worstTwist << " (relative to the largest)");
  CHECK(worstValue < 1e-12);
  CHECK(worstPose < 1e-9);
  CHECK(worstTwist < 1e-12);
}
