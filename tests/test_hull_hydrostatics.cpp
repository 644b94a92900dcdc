// tests/test_hull_hydrostatics.cpp — the exact clipping of engine/models/hull_hydrostatics against
// independent closed forms: a tilted box in still water (inclusion-exclusion formulas for the volume and
// first moments of a box cut by a plane), an upright box under the piecewise-linear waves (column
// integrals over the grid triangles), full submersion, patch-size invariance, the water surface itself, and
// the pose derivative of the volume and its first moment (Reynolds transport) against finite differences.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <random>

#include "engine/models/hull_hydrostatics.h"
#include "engine/models/water_surface.h"

using namespace varsim;

namespace {

using Real = long double;  // the closed forms cancel badly for nearly axis-aligned planes
Real cube(Real v) { return v > 0 ? v * v * v : 0; }
Real quartic(Real v) { return v > 0 ? v * v * v * v : 0; }

// Box [0,L]^3 cut by a.s <= d, all a_i != 0: V = sum_eps (-1)^|eps| (d - a.(eps L))_+^3 / (6 a1 a2 a3), and
// int s_i dV from the antiderivatives of (t - a_i s)_+^2 (closed form, no quadrature), in long double.
struct CutBox {
  double volume;
  Vector3d moment;  // int s dV
};

CutBox cutBox(const Vector3d& a, const Vector3d& L, double d) {
  Real vol = 0;
  for (int e = 0; e < 8; ++e) {
    const Real arg = Real(d) - ((e & 1) ? Real(a[0]) * L[0] : 0) - ((e & 2) ? Real(a[1]) * L[1] : 0) -
                     ((e & 4) ? Real(a[2]) * L[2] : 0);
    const Real sign = ((e & 1) + ((e >> 1) & 1) + ((e >> 2) & 1)) % 2 ? -1 : 1;
    vol += sign * cube(arg);
  }
  CutBox out{double(vol / (6 * Real(a[0]) * a[1] * a[2])), Vector3d::Zero()};
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    Real m = 0;
    for (int e = 0; e < 4; ++e) {
      const Real sign = (((e & 1) + ((e >> 1) & 1)) % 2) ? -1 : 1;
      const Real t0 = Real(d) - ((e & 1) ? Real(a[j]) * L[j] : 0) - ((e & 2) ? Real(a[k]) * L[k] : 0);
      // int_0^L s (t0 - a s)_+^2 ds = L Phi1(L) - Phi2(L) + Phi2(0), Phi1 = -(.)^3/(3a), Phi2 = (.)^4/(12 a^2)
      const Real ai = a[i], Li = L[i];
      const Real phi1L = -cube(t0 - ai * Li) / (3 * ai);
      const Real phi2L = quartic(t0 - ai * Li) / (12 * ai * ai), phi20 = quartic(t0) / (12 * ai * ai);
      m += sign * (Li * phi1L - phi2L + phi20);
    }
    out.moment[i] = double(m / (2 * Real(a[j]) * a[k]));
  }
  return out;
}

se3::Pose pose(const Vector3d& rotvec, const Vector3d& x) {
  se3::Pose g;
  g.R = Eigen::AngleAxisd(rotvec.norm(), rotvec.normalized()).toRotationMatrix();
  g.x = x;
  return g;
}

}  // namespace

TEST_CASE("UprightBoxStillWaterDraftVolumeCentroidAndWettedArea") {
  BoxHull hull;
  hull.size = Vector3d(4.0, 1.8, 0.8);
  const auto patches = hull.patches(0.3);
  WaterSurface still;
  HydrostaticState hs;
  se3::Pose g;
  g.x = Vector3d(3.0, -2.0, 0.4 - 0.25);  // draft 0.25
  computeHydrostatics(patches, g, still, 0.0, hs);
  CHECK(hs.volume == doctest::Approx(4.0 * 1.8 * 0.25).epsilon(1e-13));
  CHECK((hs.centroid - Vector3d(3.0, -2.0, -0.125)).norm() < 1e-13);
  CHECK(hs.wettedArea == doctest::Approx(4.0 * 1.8 + 2.0 * (4.0 + 1.8) * 0.25).epsilon(1e-13));
  double dry = 0.0;
  for (const auto& e : hs.patches) dry += e.dryArea;
  CHECK(dry + hs.wettedArea == doctest::Approx(2.0 * (4.0 * 1.8 + 4.0 * 0.8 + 1.8 * 0.8)).epsilon(1e-13));
}

TEST_CASE("TiltedBoxStillWaterMatchesClosedFormVolumeAndCentroid") {
  // Random attitudes and heights from fully dry to fully submerged, box centre offset from the origin.
  BoxHull hull;
  hull.size = Vector3d(3.0, 1.2, 0.7);
  hull.center = Vector3d(0.2, -0.1, 0.15);
  const auto patches = hull.patches(0.35);
  WaterSurface still;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  double worstV = 0.0, worstC = 0.0;
  int partial = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Vector3d rv(1.3 * u(rng), 1.3 * u(rng), 3.0 * u(rng));
    const se3::Pose g = pose(rv, Vector3d(50.0 * u(rng), 50.0 * u(rng), 1.2 * u(rng)));
    HydrostaticState hs;
    computeHydrostatics(patches, g, still, 0.0, hs);
    // Closed form in box coordinates s in [0, size]: p = x + R (c - size/2 + s), water z <= 0.
    const Vector3d a = g.R.transpose() * Vector3d::UnitZ();
    const Vector3d corner = hull.center - 0.5 * hull.size;
    const double d = -(g.x + g.R * corner).z();
    const CutBox ref = cutBox(a, hull.size, d);
    worstV = std::max(worstV, std::abs(hs.volume - ref.volume) / hull.volume());
    if (ref.volume > 1e-3 * hull.volume()) {
      const Vector3d c = g.x + g.R * (corner + ref.moment / ref.volume);
      worstC = std::max(worstC, (hs.centroid - c).norm());
      if (ref.volume < 0.999 * hull.volume()) ++partial;
    }
  }
  MESSAGE("tilted box, still water: max |dV|/V_box = " << worstV << ", max centroid error = " << worstC << " m");
  CHECK(partial > 50);
  CHECK(worstV < 1e-14);
  CHECK(worstC < 1e-11);
}

TEST_CASE("UprightBoxUnderWavesMatchesColumnIntegralOverGridTriangles") {
  // Footprint on grid lines, bottom below and top above every wave: V = int (eta - z_b) over the footprint,
  // computed triangle by triangle from the node heights (degree 2 integrands, edge-midpoint rule).
  WaveSettings ws;
  ws.amplitude = 0.3;
  ws.wavelength = 7.0;
  ws.direction = 0.4;
  ws.gridSpacing = 0.25;
  WaterSurface water(ws);
  const double t = 3.7;
  BoxHull hull;
  hull.size = Vector3d(4.0, 2.0, 3.0);
  const auto patches = hull.patches(0.4);
  se3::Pose g;
  g.x = Vector3d(10.0, -4.0, 0.0);  // footprint [8, 12] x [-5, -3], z in [-1.5, 1.5]
  HydrostaticState hs;
  computeHydrostatics(patches, g, water, t, hs);

  const double zb = -1.5, s = ws.gridSpacing;
  double V = 0.0;
  Vector3d M = Vector3d::Zero();
  for (long j = long(-5.0 / s); j < long(-3.0 / s); ++j)
    for (long i = long(8.0 / s); i < long(12.0 / s); ++i)
      for (int lower = 0; lower < 2; ++lower) {
        const Eigen::Vector2d p00(i * s, j * s), p11((i + 1) * s, (j + 1) * s);
        const Eigen::Vector2d p2 = lower ? Eigen::Vector2d((i + 1) * s, j * s) : Eigen::Vector2d(i * s, (j + 1) * s);
        const Eigen::Vector2d tri[3] = {p00, p2, p11};
        const double area = 0.5 * s * s;
        for (int e = 0; e < 3; ++e) {
          const Eigen::Vector2d m = 0.5 * (tri[e] + tri[(e + 1) % 3]);
          const double eta = water.height(m.x(), m.y(), t);
          V += area / 3.0 * (eta - zb);
          M += area / 3.0 * Vector3d(m.x() * (eta - zb), m.y() * (eta - zb), 0.5 * (eta * eta - zb * zb));
        }
      }
  CHECK(hs.volume == doctest::Approx(V).epsilon(1e-12));
  CHECK((hs.centroid - M / V).norm() < 1e-11);
  CHECK(std::abs(V - 4.0 * 2.0 * 1.5) > 1e-3);  // the waves really change the volume
}

TEST_CASE("PatchSizeDoesNotChangeTheExactVolume") {
  WaveSettings ws;
  ws.amplitude = 0.25;
  ws.wavelength = 5.0;
  WaterSurface water(ws);
  BoxHull hull;
  const se3::Pose g = pose(Vector3d(0.3, -0.2, 0.9), Vector3d(1.3, 0.7, 0.05));
  HydrostaticState coarse, fine;
  computeHydrostatics(hull.patches(2.0), g, water, 1.1, coarse);
  computeHydrostatics(hull.patches(0.07), g, water, 1.1, fine);
  CHECK(coarse.volume == doctest::Approx(fine.volume).epsilon(1e-12));
  CHECK((coarse.centroid - fine.centroid).norm() < 1e-11);
  CHECK(coarse.wettedArea == doctest::Approx(fine.wettedArea).epsilon(1e-12));
}

TEST_CASE("FullySubmergedAndFullyDryUnderWaves") {
  WaveSettings ws;
  ws.amplitude = 0.4;
  WaterSurface water(ws);
  BoxHull hull;
  hull.center = Vector3d(0.1, 0.2, -0.3);
  const auto patches = hull.patches(0.3);
  const se3::Pose deep = pose(Vector3d(0.5, 0.4, -0.3), Vector3d(2.0, 1.0, -5.0));
  HydrostaticState hs;
  computeHydrostatics(patches, deep, water, 2.0, hs);
  CHECK(hs.volume == doctest::Approx(hull.volume()).epsilon(1e-13));
  CHECK((hs.centroid - deep.act(hull.center)).norm() < 1e-12);
  const se3::Pose high = pose(Vector3d(0.5, 0.4, -0.3), Vector3d(2.0, 1.0, 5.0));
  computeHydrostatics(patches, high, water, 2.0, hs);
  CHECK(hs.volume == 0.0);
  CHECK(hs.wettedArea == 0.0);
}

TEST_CASE("VolumeAndMomentPoseDerivativeMatchFiniteDifferences") {
  // hydrostaticDerivative against central differences of V and m = R^T (x_s - x) V for g exp(eps^), in still
  // water and under waves, over random partly wet attitudes (V is C^1, so the central error is O(delta^2)
  // away from the rare kinks of its second derivative).
  BoxHull hull;
  hull.size = Vector3d(3.0, 1.2, 0.7);
  hull.center = Vector3d(0.2, -0.1, 0.15);
  const auto patches = hull.patches(0.35);
  WaveSettings ws;
  ws.amplitude = 0.2;
  ws.wavelength = 6.0;
  ws.direction = 0.7;
  ws.gridSpacing = 0.3;
  const WaterSurface waters[2] = {WaterSurface(), WaterSurface(ws)};
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto moment = [](const se3::Pose& g, const HydrostaticState& hs) -> Vector3d {
    return g.R.transpose() * (hs.centroid - g.x) * hs.volume;
  };
  double worst = 0.0;
  int tested = 0;
  for (const WaterSurface& water : waters)
    for (int trial = 0; trial < 40; ++trial) {
      const se3::Pose g = pose(Vector3d(0.8 * u(rng), 0.8 * u(rng), 3.0 * u(rng)),
                               Vector3d(20.0 * u(rng), 20.0 * u(rng), 0.4 * u(rng)));
      HydrostaticState hs;
      computeHydrostatics(patches, g, water, 1.3, hs);
      if (hs.volume < 0.05 * hull.volume() || hs.volume > 0.95 * hull.volume()) continue;
      const HydrostaticDerivative d = hydrostaticDerivative(patches, g, hs);
      const double delta = 1e-6;
      Eigen::Matrix<double, 4, 6> fd, an;
      for (int j = 0; j < 6; ++j) {
        Eigen::Vector4d val[2];
        for (int sgn = 0; sgn < 2; ++sgn) {
          Vector6d eps = Vector6d::Zero();
          eps[j] = sgn ? -delta : delta;
          const se3::Pose gp = g * se3::exp(eps);
          HydrostaticState hp;
          computeHydrostatics(patches, gp, water, 1.3, hp);
          val[sgn] << hp.volume, moment(gp, hp);
        }
        fd.col(j) = (val[0] - val[1]) / (2.0 * delta);
      }
      an << d.volume, d.moment;
      worst = std::max(worst, (fd - an).cwiseAbs().maxCoeff() / an.cwiseAbs().maxCoeff());
      ++tested;
    }
  MESSAGE("dV/deps, dm/deps vs central differences over " << tested << " poses: max relative error " << worst);
  CHECK(tested > 30);
  CHECK(worst < 1e-6);
}

TEST_CASE("WaterSurfaceIsThePiecewiseLinearInterpolantAndItsVelocityMatchesTheSea") {
  WaveSettings ws;
  ws.amplitude = 0.3;
  ws.wavelength = 9.0;
  ws.direction = -0.6;
  ws.current = Vector3d(0.5, -0.2, 0.0);
  WaterSurface water(ws);
  const double s = ws.gridSpacing, t = 4.2;
  // Nodes carry the smooth sea; edges and the diagonal interpolate linearly; the surface is continuous.
  for (long i = -3; i < 3; ++i)
    for (long j = -3; j < 3; ++j) {
      CHECK(water.height(i * s, j * s, t) == doctest::Approx(water.smoothHeight(i * s, j * s, t)).epsilon(1e-14));
      const double mid = 0.5 * (water.nodeHeight(i, j, t) + water.nodeHeight(i + 1, j + 1, t));
      CHECK(water.height((i + 0.5) * s, (j + 0.5) * s, t) == doctest::Approx(mid).epsilon(1e-13));
      const double eps = 1e-9;
      CHECK(std::abs(water.height((i + 0.5) * s + eps, (j + 0.5) * s, t) -
                     water.height((i + 0.5) * s, (j + 0.5) * s + eps, t)) < 1e-8);
    }
  CHECK(water.maxElevation() == doctest::Approx(0.3 * (1.0 + 0.45 + 0.25)));
  // Kinematic surface condition of the linear sea: d eta/dt = w at z = 0 (finite difference, O(dt^2)).
  for (double x : {0.3, 2.9, -7.1}) {
    const double dt = 1e-5;
    const double deta = (water.smoothHeight(x, 1.0, t + dt) - water.smoothHeight(x, 1.0, t - dt)) / (2.0 * dt);
    CHECK(water.velocity(Vector3d(x, 1.0, 0.0), t).z() == doctest::Approx(deta).epsilon(1e-8));
  }
  // Deep below the waves only the current is left.
  CHECK((water.velocity(Vector3d(1.0, 2.0, -200.0), t) - ws.current).norm() < 1e-12);
}
