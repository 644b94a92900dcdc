// tests/test_kkt_pivot_correction.cpp — Woodbury's correction of replaced pivots (plan/kkt_pivot_correction.h) on
// dense random symmetric indefinite matrices: A + U Delta U^T solved by Eigen's LU stands for the perturbed factor;
// the corrected solve matches A^-1 b to 1e-10 relative and Haynsworth's shift gives A's negative eigenvalues from
// the perturbed matrix's; a singular A is reported singular.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <random>
#include <vector>

#include "plan/kkt_pivot_correction.h"

using namespace varsim;

namespace {

int negatives(const Eigen::MatrixXd& m) {
  return int((Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(m).eigenvalues().array() < 0.0).count());
}

}  // namespace

TEST_CASE("KktPivotCorrectionSolvesTheUnperturbedMatrixAndCountsItsInertia") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const auto& [n, r, size] : {std::tuple{8, 1, 1e-8}, std::tuple{20, 3, 1e-8}, std::tuple{40, 7, 1.0}}) {
    Eigen::MatrixXd A = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return u(rng); });
    A = (A + A.transpose()).eval();
    std::vector<int> positions;
    std::vector<double> deltas;
    Eigen::MatrixXd perturbed = A;
    for (int j = 0; j < r; ++j) {
      positions.push_back(3 * j + 1);
      deltas.push_back(j % 2 ? -size : size);
      perturbed(positions.back(), positions.back()) += deltas.back();
    }
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(perturbed);
    const kkt::FactorSolve solve = [&](double* v) {
      Eigen::Map<Eigen::VectorXd> m(v, n);
      m = lu.solve(Eigen::VectorXd(m));
    };
    std::vector<double> Q(static_cast<size_t>(r * r)), lambda(static_cast<size_t>(r)), work(static_cast<size_t>(n));
    const kkt::CorrectionInertia c =
        kkt::buildCorrection(n, r, positions.data(), deltas.data(), solve, Q.data(), lambda.data(), work.data());
    INFO("n " << n << " r " << r << " perturbation " << size);
    REQUIRE_FALSE(c.singular);
    CHECK(negatives(perturbed) + c.negativeShift == negatives(A));
    const Eigen::VectorXd b = Eigen::VectorXd::NullaryExpr(n, [&] { return u(rng); });
    Eigen::VectorXd x = b;
    solve(x.data());
    kkt::applyCorrection(n, r, positions.data(), Q.data(), lambda.data(), solve, x.data(), work.data());
    CHECK((A * x - b).norm() <= 1e-10 * (A.norm() * x.norm() + b.norm()));
  }
  // [1 1; 1 1] with its second diagonal perturbed: A itself is singular
  Eigen::Matrix2d A;
  A << 1.0, 1.0, 1.0, 1.0;
  Eigen::Matrix2d perturbed = A;
  perturbed(1, 1) += 1e-8;
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu{Eigen::MatrixXd(perturbed)};
  const kkt::FactorSolve solve = [&](double* v) {
    Eigen::Map<Eigen::VectorXd> m(v, 2);
    m = lu.solve(Eigen::VectorXd(m));
  };
  const int position = 1;
  const double delta = 1e-8;
  double Q = 0.0, lambda = 0.0, work[2];
  CHECK(kkt::buildCorrection(2, 1, &position, &delta, solve, &Q, &lambda, work).singular);
}
