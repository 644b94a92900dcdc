// tests/test_kkt_ldl.cpp — the KKT LDL^T solver through MA27's calling sequence as Ipopt 3.11.9 drives it
// (plan/ma27_bridge.h): random sparse symmetric indefinite KKT matrices given as triplets from both triangles with
// duplicates, solved to a relative residual <= 1e-12 against Eigen's dense LDLT, the inertia (INFO(15)) against
// Eigen's eigenvalues, zero-diagonal systems factorised by 2x2 pivots without any pivot replaced, a zero pivot
// replaced (default) or reported as INFO(1) = 3 (CNTL(4) = 0), too small A / IW
// arrays as -4 / -3 with the sizes needed, and a small car plan solved by Ipopt with the LDL^T solver and with MUMPS
// to the same plan.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <random>
#include <vector>

#include "plan/ipopt_solver.h"
#include "plan/ma27_bridge.h"
#include "plan/plan_session.h"
#include "tests/kkt_harness.h"
#include "tests/plan_harness.h"

using namespace varsim;
using test::Ma27Run, test::negativeEigenvalues, test::randomKkt, test::Triplets;

TEST_CASE("KktLdlSolvesRandomIndefiniteKktSystemsAndCountsTheirNegativeEigenvalues") {
  std::mt19937 rng(31);
  int cases = 0;
  for (const bool indefinite : {false, true})
    for (const double delta : {0.0, 1e-8, 1e-2})
      for (const auto& [n, m] : {std::pair{12, 5}, std::pair{40, 18}, std::pair{60, 35}}) {
        Eigen::MatrixXd dense;
        Triplets t = randomKkt(n, m, indefinite, delta, rng, dense);
        Ma27Run run(t);
        run.factoriseGrowing(t);
        INFO("n " << n << " m " << m << " indefinite " << indefinite << " delta " << delta);
        // Without regularisation (delta = 0) a static pivot can still vanish (two constraint rows through one
        // variable eliminated before their others): reported singular, and Ipopt then regularises (delta_c > 0).
        if (delta == 0.0 && run.info[0] == 3) continue;
        REQUIRE(run.info[0] == 0);
        ++cases;
        CHECK(run.info[14] == negativeEigenvalues(dense));
        const Eigen::VectorXd b = Eigen::VectorXd::NullaryExpr(n + m, [&] { return std::normal_distribution<>()(rng); });
        const Eigen::VectorXd x = run.solve(n + m, b), xRef = dense.ldlt().solve(b);
        // delta = 1e-8 eliminated before its row's variables loses ~8 digits, which solve()'s refinement recovers
        CHECK((dense * x - b).norm() <= 1e-12 * (dense.norm() * x.norm() + b.norm()));
        CHECK((x - xRef).norm() <= 1e-8 * xRef.norm());
      }
  CHECK(cases >= 16);  // of 18
}

// Zero-diagonal blocks ([0 J^T; J 0] and KKT systems whose variables lack curvature) need 2x2 pivots: with pivot
// replacement off (CNTL(4) = 0) every one factorises without a zero pivot, to the residual and inertia of Eigen.
TEST_CASE("KktLdlTakes2x2PivotsWhereTheDiagonalIsZero") {
  std::mt19937 rng(34);
  for (const double zero : {0.5, 1.0})
    for (const auto& [n, m] : {std::pair{10, 10}, std::pair{30, 20}, std::pair{60, 45}}) {
      Eigen::MatrixXd dense;
      Triplets t = randomKkt(n, m, true, 0.0, rng, dense, zero);
      Ma27Run run(t);
      run.cntl[3] = 0.0;
      run.factoriseGrowing(t);
      INFO("n " << n << " m " << m << " zero diagonal fraction " << zero);
      REQUIRE(run.info[0] == 0);
      CHECK(run.info[14] == negativeEigenvalues(dense));
      const Eigen::VectorXd b = Eigen::VectorXd::NullaryExpr(n + m, [&] { return std::normal_distribution<>()(rng); });
      const Eigen::VectorXd x = run.solve(n + m, b);
      CHECK((dense * x - b).norm() <= 1e-12 * (dense.norm() * x.norm() + b.norm()));
    }
  Triplets pair;  // [0 2; 2 0] (eigenvalues +-2): one 2x2 pivot; [0 0; 0 0] beside it is singular at pivot 0
  pair.n = 2;
  pair.add(1, 0, 2.0), pair.add(0, 0, 0.0), pair.add(1, 1, 0.0);
  Ma27Run run(pair);
  run.cntl[3] = 0.0;
  run.factorise(pair);
  CHECK(run.info[0] == 0);
  CHECK(run.info[14] == 1);
  const Eigen::VectorXd x = run.solve(2, Eigen::Vector2d(4.0, 6.0));
  CHECK(std::abs(x(0) - 3.0) < 1e-15);
  CHECK(std::abs(x(1) - 2.0) < 1e-15);
  pair.values[0] = 0.0;
  run.factorise(pair);
  CHECK(run.info[0] == 3);
  CHECK(run.info[1] == 0);
}

// Variables v1, v2, w, u1..u3 and constraints c1 = v1 + v2, c2 = v1 + v2 + w / 2 (AMD takes c1 first): the matching
// pairs c1 with v1 and c2 with v2 (its strongest), and the pair eliminated second meets a Schur complement whose
// coupling cancels (1 - 1) and whose pivot is 0. The factorisation replaces that pivot, orders again
// with that constraint matched elsewhere, and keeps the new order in IKEEP: factorised again with replacement off,
// the matrix is not singular.
TEST_CASE("KktLdlOrdersAgainAroundAPairWhoseCouplingCancels") {
  Triplets t;
  t.n = 8;  // v1, v2, w, c1, c2, u1, u2, u3
  for (const int i : {0, 1, 2}) t.add(i, i, 1.0);
  // the u's raise the variables' degrees (entries of value 0 count for AMD, not for the values)
  for (const int i : {5, 6, 7}) t.add(i, i, 2.0), t.add(i, 2, 0.5), t.add(i, 0, 0.0), t.add(i, 1, 0.0);
  t.add(3, 3, -0.0), t.add(4, 4, -0.0);
  t.add(3, 0, 1.0), t.add(3, 1, 1.0), t.add(4, 0, 1.0), t.add(4, 1, 1.0), t.add(4, 2, 0.5);
  const int n = t.n;
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(n, n);
  for (size_t e = 0; e < t.values.size(); ++e)
    dense(t.rows[e] - 1, t.cols[e] - 1) = dense(t.cols[e] - 1, t.rows[e] - 1) = t.values[e];
  REQUIRE(negativeEigenvalues(dense) == 2);
  Ma27Run run(t);
  run.factoriseGrowing(t);
  REQUIRE(run.info[0] == 0);
  CHECK(run.info[14] == 2);
  run.cntl[3] = 0.0;
  run.factoriseGrowing(t);
  REQUIRE(run.info[0] == 0);
  CHECK(run.info[14] == 2);
  const Eigen::VectorXd b = (Eigen::VectorXd(n) << 1.0, -2.0, 3.0, 0.5, -1.0, 0.25, 2.0, -0.75).finished();
  const Eigen::VectorXd x = run.solve(n, b);
  CHECK((dense * x - b).norm() <= 1e-14 * (dense.norm() * x.norm() + b.norm()));
}

TEST_CASE("KktLdlReportsASingularMatrixAndArraysTooSmall") {
  Triplets t;  // [1 1 0; 1 1 0; 0 0 -2]: rank 2, the second pivot is exactly zero
  t.n = 3;
  t.add(0, 0, 1.0), t.add(1, 0, 1.0), t.add(1, 1, 1.0), t.add(2, 2, -2.0);
  Ma27Run run(t);
  run.factorise(t);
  // By default the zero pivot is replaced by 1e-8 of its row (CNTL(4)) with the sign of its diagonal entry (+1), the
  // matrix being singular no correction applies: the eigenvalues 0, 2, -2 count as one negative.
  CHECK(run.info[0] == 0);
  CHECK(run.info[14] == 1);
  run.cntl[3] = 0.0;        // no replacement: reported singular
  run.factorise(t);
  CHECK(run.info[0] == 3);
  CHECK(run.info[1] == 1);  // one pivot factored before the zero one (AMD orders the 2x2 block first here)
  t.values[2] = 2.0;        // [1 1; 1 2] now: positive definite block, one negative eigenvalue from -2
  run.factorise(t);
  CHECK(run.info[0] == 0);
  CHECK(run.info[14] == 1);
  const Eigen::VectorXd x = run.solve(3, Eigen::Vector3d(1.0, 2.0, 4.0));
  CHECK(std::abs(x(0) - 0.0) < 1e-15);
  CHECK(std::abs(x(1) - 1.0) < 1e-15);
  CHECK(std::abs(x(2) + 2.0) < 1e-15);
  const int la = run.la, liw = run.liw;
  run.la = la - 1;
  run.factorise(t);
  CHECK(run.info[0] == -4);
  CHECK(run.info[1] == la);
  run.la = la, run.liw = liw - 1;
  run.factorise(t);
  CHECK(run.info[0] == -3);
  CHECK(run.info[1] == liw);
}

TEST_CASE("KktLdlAndMumpsSolveTheSameCarPlan") {
  const PlanSetup setup = loadPlanProblem(test::problemFile("car_park"), {"N=40", "dt=0.25"});
  PlanSession mumps(setup), ldl(setup);
  mumps.setKktSolver(KktSolver::Mumps);
  ldl.setKktSolver(KktSolver::Ldl);
  const IpoptResult &a = mumps.solve(), &b = ldl.solve();
  REQUIRE(a.solved);
  REQUIRE(b.solved);
  CHECK((a.x - b.x).cwiseAbs().maxCoeff() <= 1e-7);
  CHECK(std::abs(a.objective - b.objective) <= 1e-9 * std::abs(a.objective));
}
