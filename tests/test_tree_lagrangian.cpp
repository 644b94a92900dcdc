// Tests of seed 003 eqs. (15)–(18) on the tree (engine/tree/tree_lagrangian.*):
// dL/dq, dL/dqdot, the Hessians, M(q), ∇M(q) and ∇V against finite differences
// on random trees; M(q) and V(q) of the double pendulum
// (engine/tree/pendulum_chain.*) against the closed form.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>
#include <functional>

#include "engine/sim/errors.h"
#include "engine/tree/pendulum_chain.h"
#include "engine/tree/tree_lagrangian.h"
#include "tests/tree_fixtures.h"

using namespace varsim;
using namespace varsim::tree;

namespace {

constexpr double kEps = 1e-6;

// Column i of the Jacobian of f by central differences in q (inQ) or qdot.
template <class T>
T diff(Tree& t, bool inQ, int i, const std::function<T()>& f) {
  const VectorXd q = t.q(), qd = t.qdot();
  auto at = [&](double s) {
    VectorXd a = q, b = qd;
    (inQ ? a : b)(i) += s;
    t.setState(a, b);
    return f();
  };
  const T plus = at(kEps), minus = at(-kEps);
  at(0);
  return (plus - minus) / (2 * kEps);
}

}  // namespace

TEST_CASE("LagrangianDerivativesMatchFiniteDifferences") {
  double w[6] = {0, 0, 0, 0, 0, 0};
  for (unsigned seed = 41; seed <= 46; ++seed) {
    Tree t = test::randomTree(seed);
    const int n = t.dof();
    REQUIRE(n > 0);
    const VectorXd Lq = dLdq(t), Lqd = dLdqdot(t), gV = gradV(t);
    const MatrixXd Lqq = d2LdqDq(t), Lqqd = d2LdqDqdot(t), M = massMatrix(t);
    const std::vector<MatrixXd> gM = massMatrixGradient(t);
    for (int i = 0; i < n; ++i) {
      w[0] = std::max(w[0], std::abs(diff<double>(t, true, i, [&] { return lagrangian(t); }) - Lq(i)));
      w[1] = std::max(w[1], std::abs(diff<double>(t, false, i, [&] { return lagrangian(t); }) - Lqd(i)));
      w[2] = std::max(w[2], (diff<VectorXd>(t, true, i, [&] { return dLdq(t); }) - Lqq.col(i)).norm());
      // (17): column j of d²L/dq dqdot_j is d/dqdot_j of dL/dq.
      w[3] = std::max(w[3], (diff<VectorXd>(t, false, i, [&] { return dLdq(t); }) - Lqqd.col(i)).norm());
      w[4] = std::max(w[4], (diff<VectorXd>(t, false, i, [&] { return dLdqdot(t); }) - M.col(i)).norm());
      w[5] = std::max(w[5], (diff<MatrixXd>(t, true, i, [&] { return massMatrix(t); }) - gM[i]).norm());
      CHECK(std::abs(diff<double>(t, true, i, [&] { return potentialEnergy(t); }) - gV(i)) < 1e-7);
    }
    CHECK((M - M.transpose()).norm() == 0);
    CHECK(Eigen::SelfAdjointEigenSolver<MatrixXd>(M).eigenvalues().minCoeff() > -1e-12);
  }
  MESSAGE("L_q " << w[0] << " L_qdot " << w[1] << " L_qq " << w[2] << " L_qqdot " << w[3] << " M " << w[4] << " gradM "
                 << w[5]);
  for (double e : w) CHECK(e < 1e-7);
}

TEST_CASE("SeedTwoContractionsOfGradM") {
  Tree t = test::randomTree(51);
  const int n = t.dof();
  const std::vector<MatrixXd> gM = massMatrixGradient(t);
  const VectorXd v = VectorXd::LinSpaced(n, -1, 1);
  const MatrixXd R = contractRows(gM, v), C = contractColumns(gM, v);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      double r = 0;
      for (int l = 0; l < n; ++l) r += gM[i](l, j) * v(l);  // seed 002: sum_l dM_lj/dq_i v_l
      CHECK(R(i, j) == doctest::Approx(r).epsilon(1e-12));
      CHECK(C(i, j) == doctest::Approx((gM[j] * v)(i)).epsilon(1e-12));
    }
  }
}

TEST_CASE("GradMContractionWithoutTheTensor") {
  double worst = 0;
  for (unsigned seed = 52; seed <= 57; ++seed) {
    Tree t = test::randomTree(seed);
    const VectorXd v = VectorXd::LinSpaced(t.dof(), -1.3, 0.7);
    const MatrixXd direct = massGradientContraction(t, v), viaTensor = contractRows(massMatrixGradient(t), v);
    worst = std::max(worst, (direct - viaTensor).norm() / (1 + viaTensor.norm()));
  }
  MESSAGE("|massGradientContraction - contractRows(gradM)| / (1 + |.|) = " << worst);
  CHECK(worst < 1e-13);
}

TEST_CASE("DoublePendulumMassMatrixAndPotentialClosedForm") {
  const double m = 1.3, l = 0.7, g = 9.81;
  Tree t = pendulumChain(2, m, l);
  REQUIRE(t.dof() == 2);
  for (double q2 : {-2.0, -0.4, 0.0, 0.9, 2.5}) {
    const double q1 = 0.3 - q2 / 3;
    Eigen::Vector2d q(q1, q2);
    t.setState(q, Eigen::Vector2d(0.4, -1.1));
    // Point masses m1 = m2 = m on rods l1 = l2 = l, relative angles (Lagrangian
    // textbook form).
    const double M11 = 2 * m * l * l + m * l * l + 2 * m * l * l * std::cos(q2);
    const double M12 = m * l * l + m * l * l * std::cos(q2), M22 = m * l * l;
    const MatrixXd M = massMatrix(t);
    CHECK(M(0, 0) == doctest::Approx(M11).epsilon(1e-14));
    CHECK(M(0, 1) == doctest::Approx(M12).epsilon(1e-14));
    CHECK(M(1, 1) == doctest::Approx(M22).epsilon(1e-14));
    const double V = -m * g * l * std::cos(q1) - m * g * l * (std::cos(q1) + std::cos(q1 + q2));
    CHECK(potentialEnergy(t) == doctest::Approx(V).epsilon(1e-14));
    CHECK(kineticEnergy(t) == doctest::Approx(0.5 * t.qdot().dot(M * t.qdot())).epsilon(1e-13));
  }
  CHECK_THROWS_AS(pendulumChain(0, 1, 1), BadInput);
  CHECK_THROWS_AS(pendulumChain(3, 1, -1), BadInput);
}

TEST_CASE("UncachedLagrangianQuantitiesAreBitIdentical") {
  Tree a = test::randomTree(61), b = test::randomTree(61);
  b.setCache(false);
  CHECK(massMatrix(a) == massMatrix(b));
  CHECK(dLdq(a) == dLdq(b));
  CHECK(d2LdqDq(a) == d2LdqDq(b));
  CHECK(d2LdqDqdot(a) == d2LdqDqdot(b));
  const auto ga = massMatrixGradient(a), gb = massMatrixGradient(b);
  for (size_t c = 0; c < ga.size(); ++c) CHECK(ga[c] == gb[c]);
}
