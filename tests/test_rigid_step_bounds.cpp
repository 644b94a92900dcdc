// Tests of the rigid-body step bounds of seed 002 Sec. 3.2 (engine/integrators/rigid_step_bounds.h): closed
// forms (kappa = 1 unrestricted, the kappa = 4 limit 4/(3|w|), the 4 sqrt(7) - 7 threshold, the printed form of
// (20) away from 4), the Jacobians (17) and ERRATA-corrected (18) against finite differences (the printed h/4,
// h/2 are not), and a small seeded version of the Fig. 2 Monte-Carlo study: no trial's Jacobian turns singular
// below either bound, (19) is tight; the 50 000-trial study is bench_rigid_step_bounds.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>

#include "engine/integrators/rigid_step_bounds.h"
#include "engine/lie/so3.h"
#include "engine/sim/errors.h"
#include "tests/scene_harness.h"

using namespace varsim;
using namespace varsim::stepbounds;

TEST_CASE("BoundsClosedForms") {
  CHECK(tlnBound(1.0, 3.0) == kInfinity);
  CHECK(tlnBound(5.0, 0.0) == kInfinity);
  CHECK(tlnBound(3.0, 2.0) == doctest::Approx(1.0));  // 4 / (2 * 2)
  CHECK(cayleyBound(4.0, 1.0) == doctest::Approx(4.0 / 3.0).epsilon(1e-15));
  CHECK(cayleyBound(4.0, 2.5) == doctest::Approx(4.0 / 7.5).epsilon(1e-15));
  for (double d : {1e-12, 1e-9, 1e-6}) {  // continuous through kappa = 4 (the printed form is 0/0 there)
    CHECK(cayleyBound(4.0 + d, 1.0) == doctest::Approx(4.0 / 3.0).epsilon(1e-5));
    CHECK(cayleyBound(4.0 - d, 1.0) == doctest::Approx(4.0 / 3.0).epsilon(1e-5));
  }
  for (double k : {3.7, 5.0, 6.0, 10.0, 100.0}) {  // equals (20) as printed where that is well defined
    const double printed = (k - 1.0 - std::sqrt(k * k + 14.0 * k - 63.0)) / (8.0 - 2.0 * k);
    CHECK(cayleyBound(k, 1.0) == doctest::Approx(printed).epsilon(1e-12));
  }
  CHECK(cayleyUnrestrictedKappa() == doctest::Approx(3.5830052).epsilon(1e-7));
  CHECK(cayleyBound(3.58, 1.0) == kInfinity);
  CHECK(std::isfinite(cayleyBound(3.59, 1.0)));
  CHECK(cayleyBound(1.0, 10.0) == kInfinity);
  CHECK(conditionNumber(Vector3d(2.0, 4.0, 7.0).asDiagonal()) == doctest::Approx(3.5));
}

TEST_CASE("SphericalBodyIsNeverSingular") {
  const Matrix3d J = 2.5 * Matrix3d::Identity();
  const Vector3d w(0.3, -1.2, 0.7);
  for (double h : {0.1, 1.0, 10.0, 1000.0}) {
    CHECK((jacobian(Scheme::Tln, J, w, h) - J).norm() < 1e-12);  // kappa = 1: De_tln = J exactly
    CHECK(jacobian(Scheme::Cayley, J, w, h).determinant() > J.determinant());
  }
  const BoundTrial t = boundTrial(J, w, 100.0, true);
  for (int i = 0; i < 2; ++i) {
    CHECK(t.singular[i] == kInfinity);
    CHECK(t.newtonFail[i] == kInfinity);
  }
}

TEST_CASE("JacobiansMatchFiniteDifferencesOfTheResiduals") {
  const Matrix3d J = (Matrix3d() << 2.0, 0.3, -0.1, 0.3, 4.0, 0.2, -0.1, 0.2, 7.0).finished();
  const Vector3d w(0.4, -1.1, 0.6);
  const double h = 0.7, e = 1e-6;
  for (Scheme s : {Scheme::Tln, Scheme::Cayley}) {
    Matrix3d fd;
    for (int j = 0; j < 3; ++j) {
      Vector3d dw = Vector3d::Zero();
      dw(j) = e;
      fd.col(j) = (residualOperator(s, J, w + dw, h) - residualOperator(s, J, w - dw, h)) / (2 * e);
    }
    CHECK((fd - jacobian(s, J, w, h)).norm() < 1e-8);
  }
  // ERRATA (18): the printed h/4 (w^T J w) I + h/2 w w^T J does not match.
  const Vector3d Jw = J * w;
  const Matrix3d printed = J - 0.5 * h * so3::hat(Jw) + 0.5 * h * so3::hat(w) * J +
                           0.25 * h * w.dot(Jw) * Matrix3d::Identity() + 0.5 * h * w * Jw.transpose();
  CHECK((printed - jacobian(Scheme::Cayley, J, w, h)).norm() > 0.1);
  // The constants: c_k (TLN) and d_k (Cayley) make w_k itself the solution at h -> 0 and are exact momenta.
  CHECK((previousMomentum(Scheme::Cayley, J, w, h) - (so3::dcayInv(-h * w).transpose() * J * w)).norm() < 1e-14);
  CHECK((residualOperator(Scheme::Cayley, J, w, h) - so3::dcayInv(h * w).transpose() * J * w).norm() < 1e-14);
}

TEST_CASE("SmallMonteCarloNoSingularJacobianBelowEitherBound") {
  std::uint64_t seed = 20260212;
  int below[2] = {0, 0}, newtonBelow[2] = {0, 0}, singularCount[2] = {0, 0};
  double tight[2] = {kInfinity, kInfinity};
  const int trials = 2000;
  for (int k = 0; k < trials; ++k) {
    Matrix3d J;
    Vector3d w;
    sampleTrial(seed, 10.0, J, w);
    const BoundTrial t = boundTrial(J, w, 100.0, k < 300);  // Newton scans on the first 300 trials
    for (int i = 0; i < 2; ++i) {
      if (t.singular[i] < t.bound[i]) ++below[i];
      if (t.newtonFail[i] < t.bound[i]) ++newtonBelow[i];
      if (std::isfinite(t.singular[i])) ++singularCount[i], tight[i] = std::min(tight[i], t.singular[i] / t.bound[i]);
    }
  }
  std::printf(
      "step bounds, %d trials, kappa in [1, 10]: singular below bound: TLN %d, Cayley %d; Newton failures "
      "below bound (300 trials): %d, %d; singular at all: %d, %d; min h_sing/h_bar: %.4f, %.4f\n",
      trials, below[0], below[1], newtonBelow[0], newtonBelow[1], singularCount[0], singularCount[1], tight[0],
      tight[1]);
  CHECK(below[0] == 0);
  CHECK(below[1] == 0);
  CHECK(tight[0] < 1.2);  // (19) is tight
  CHECK(tight[0] >= 1.0);
}

TEST_CASE("RigidBodySceneShowsTheBoundBesideHAndWarnsAboveIt") {
  // J = diag(2, 4, 5): kappa = 2.5, so only (19) restricts; |omega| ~ 5 rad/s gives h_bar_TLN = 4/(1.5 |w|) ~ 0.53 s.
  for (const char* dt : {"0.01", "1"}) {
    const bool large = std::string(dt) == "1";
    // Above the bound the TLN Newton indeed fails on the first step (relative residual 0.08 after 25); the LGVI
    // redoes such a step in substeps, so the start runs and the step completes (the panel still warns).
    auto s = test::makeScene("rigid_body", {{"tangent", "tln"}, {"omega", "0.3,5,-0.2"}, {"dt", dt}});
    CHECK_NOTHROW(s->step(s->dt(), {}));
    std::vector<double> row;
    s->diagnostics(row);
    CHECK(row[0] == doctest::Approx(large ? 1.0 : 0.01));  // column t
    const auto panels = s->panels(PanelContext{});
    REQUIRE(panels.size() == 1);
    const auto& header = panels[0].header;
    REQUIRE(header.size() >= 3);
    const bool warned = header[0].kind == PanelWidget::Kind::Warning;
    CHECK(warned == large);
    bool shown = false;
    for (const auto& w : header) shown |= w.label.find("largest safe step, tangent = tln: 0.5") != std::string::npos;
    CHECK(shown);
  }
}

TEST_CASE("StepBoundPanelNamesTheSelectedIntegrator") {
  // Each baseline is named as selected (rk2 was once called "RK4 baseline"); the LGVI shows its Newton count.
  for (const char* method : {"lgvi", "rk2", "rk2i", "rk4", "newmark"}) {
    auto s = test::makeScene("rigid_body", {{"integrator", method}});
    s->step(s->dt(), {});
    const auto panels = s->panels(PanelContext{});
    REQUIRE(panels.size() == 1);
    std::string all;
    for (const auto& w : panels[0].header) all += w.label + "\n";
    CHECK(all.find(std::string("integrator ") + method + ":") != std::string::npos);
    CHECK((all.find("Newton") != std::string::npos) == (std::string(method) == "lgvi"));
    CHECK(all.find("RK4") == std::string::npos);
    CHECK(all.find("h_bar") == std::string::npos);  // the paper's symbol only in tooltips
  }
}
