// SPOOK stepper properties (seed 001): Theorem 5.1 (eigenvalues of the stepping matrix B⁻¹A of
// eq. (33) with ERRATA's B = [[I, −I], [0, I]]) for random M and linear constraints including
// rank-deficient G; closed form (34); per-constraint ε_i, τ_i random trials on the actual step map;
// redundant constraints; singular systems reported with the state kept; factors kept across steps.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "engine/integrators/spook.h"
#include "engine/models/ladder.h"
#include "engine/sim/errors.h"

using namespace varsim;

namespace {

struct Trial {
  Eigen::MatrixXd M, G;
  double h, epsilon, theta;
  int rank;
};

Trial randomTrial(std::mt19937& rng) {
  std::uniform_int_distribution<int> dn(2, 10);
  std::uniform_real_distribution<double> u(-1, 1), logEps(-12, 0), th(0.01, 20), lh(-3, -1);
  Trial t;
  const int n = dn(rng);
  const int m = std::uniform_int_distribution<int>(1, 2 * n)(rng);
  t.rank = std::uniform_int_distribution<int>(1, std::min(m, n))(rng);
  Eigen::MatrixXd A = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return u(rng); });
  t.M = A * A.transpose() + 0.1 * Eigen::MatrixXd::Identity(n, n);
  const Eigen::MatrixXd L = Eigen::MatrixXd::NullaryExpr(m, t.rank, [&] { return u(rng); });
  const Eigen::MatrixXd R = Eigen::MatrixXd::NullaryExpr(t.rank, n, [&] { return u(rng); });
  t.G = L * R;  // m × n of rank r ≤ min(m, n): redundant rows whenever r < m
  t.h = std::pow(10.0, lh(rng));
  t.epsilon = std::pow(10.0, logEps(rng));
  t.theta = th(rng);
  return t;
}

// The 2×2 block of B⁻¹A (eq. (33), ERRATA B) for one eigenvalue Γ of S S_σ⁻¹.
Eigen::Matrix2d modeMatrix(double Gamma, double psi, double theta) {
  Eigen::Matrix2d B, A;
  B << 1, -1, 0, 1;
  A << 1, 0, -4 * psi * Gamma, 1 - 4 * theta * psi * Gamma;
  return B.inverse() * A;
}

}  // namespace

TEST_CASE("spook: Theorem 5.1 - eigenvalues of B^-1 A in the closed unit disc, < 1 on range(G)") {
  std::mt19937 rng(20240601);
  double worstAll = 0, worstRange = 0, worstFormula = 0;
  int rankDeficient = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Trial t = randomTrial(rng);
    const double psi = 1.0 / (1.0 + 4.0 * t.theta), sigma = 4.0 / (t.h * t.h) * psi * t.epsilon;
    const Eigen::MatrixXd S = t.G * t.M.inverse() * t.G.transpose();
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(S);
    const double sMax = es.eigenvalues().cwiseAbs().maxCoeff();
    rankDeficient += t.rank < t.G.rows();
    for (long i = 0; i < S.rows(); ++i) {
      const double lam = std::max(es.eigenvalues()[i], 0.0);
      const double Gamma = lam / (lam + sigma);
      const Eigen::Vector2cd mu = Eigen::EigenSolver<Eigen::Matrix2d>(modeMatrix(Gamma, psi, t.theta)).eigenvalues();
      const double radius = mu.cwiseAbs().maxCoeff();
      worstAll = std::max(worstAll, radius);
      const bool inRange = lam > 1e-9 * sMax;
      if (inRange) worstRange = std::max(worstRange, radius);
      // Closed form (34): μ± = 1 − 2Γψ(θ+1) ± 2√((Γψ(1+θ))² − Γψ).
      const std::complex<double> root = std::sqrt(std::complex<double>(std::pow(Gamma * psi * (1 + t.theta), 2) - Gamma * psi));
      const std::complex<double> m1 = 1.0 - 2.0 * Gamma * psi * (t.theta + 1.0) + 2.0 * root, m2 = m1 - 4.0 * root;
      // Near the double root (critical damping, τ ≈ 2h) computed roots move by √(round-off), so
      // compare the invariants of the pair: μ₊ + μ₋ = tr and μ₊μ₋ = det of the 2×2 block.
      const Eigen::Matrix2d T = modeMatrix(Gamma, psi, t.theta);
      const double d = std::abs(m1 + m2 - T.trace()) + std::abs(m1 * m2 - T.determinant());
      worstFormula = std::max(worstFormula, d);
      CHECK(std::min(std::abs(mu[0] - m1), std::abs(mu[0] - m2)) < 1e-6);
    }
    // Cross-check with the undecoupled reduced recurrence (32) on range(G): Q orthonormal basis.
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(t.G, Eigen::ComputeFullU);
    const Eigen::MatrixXd Q = svd.matrixU().leftCols(t.rank);
    const Eigen::MatrixXd Ssig = S + sigma * Eigen::MatrixXd::Identity(S.rows(), S.cols());
    const Eigen::MatrixXd P = Q.transpose() * S * Ssig.inverse() * Q;
    const long r = t.rank;
    Eigen::MatrixXd Bf = Eigen::MatrixXd::Identity(2 * r, 2 * r), Af = Eigen::MatrixXd::Identity(2 * r, 2 * r);
    Bf.topRightCorner(r, r) = -Eigen::MatrixXd::Identity(r, r);
    Af.bottomLeftCorner(r, r) = -4 * psi * P;
    Af.bottomRightCorner(r, r) -= 4 * t.theta * psi * P;
    const double radiusRange = Eigen::EigenSolver<Eigen::MatrixXd>(Bf.inverse() * Af).eigenvalues().cwiseAbs().maxCoeff();
    CHECK(radiusRange < 1.0);
  }
  MESSAGE("300 trials (" << rankDeficient << " with rank-deficient G): max |mu| " << worstAll << ", on range(G) "
                         << worstRange << ", |numeric - eq. (34)| <= " << worstFormula);
  CHECK(worstAll <= 1.0 + 1e-12);
  CHECK(worstRange < 1.0);
  CHECK(worstFormula < 1e-12);
  CHECK(rankDeficient > 50);
}

TEST_CASE("spook: printed B = [[I,-I],[I,0]] gives a different spectrum (ERRATA)") {
  // One constrained mode at the defaults (ε = 1e-8 tiny: Γ ≈ 1, θ = 2): ERRATA B gives a double root
  // μ = 1/3 (critical damping at τ = 2h); the printed B does not.
  const double psi = 1.0 / 9.0, theta = 2.0, Gamma = 1.0;
  const Eigen::Vector2cd ok = Eigen::EigenSolver<Eigen::Matrix2d>(modeMatrix(Gamma, psi, theta)).eigenvalues();
  CHECK(std::abs(ok[0] - 1.0 / 3.0) < 1e-7);
  CHECK(std::abs(ok[1] - 1.0 / 3.0) < 1e-7);
  Eigen::Matrix2d Bp, A;
  Bp << 1, -1, 1, 0;
  A << 1, 0, -4 * psi * Gamma, 1 - 4 * theta * psi * Gamma;
  const Eigen::Vector2cd printed = Eigen::EigenSolver<Eigen::Matrix2d>(Bp.inverse() * A).eigenvalues();
  CHECK(std::abs(printed[0] - 1.0 / 3.0) > 0.1);
}

namespace {
// Linear holonomic constraints g = G q on particles of diagonal mass (one row per constraint).
class LinearModel : public ConstrainedModel {
 public:
  LinearModel(Eigen::VectorXd mass, Eigen::MatrixXd G) : mass_(std::move(mass)), G_(std::move(G)) {
    for (long i = 0; i < G_.rows(); ++i) {
      ConstraintDesc d{"row " + std::to_string(i), ConstraintKind::Holonomic, 0, 1, {}, {}};
      for (long j = 0; j < G_.cols(); ++j) d.columns.push_back(int(j));
      descs_.push_back(d);
    }
  }
  int coordinateCount() const override { return int(mass_.size()); }
  const Eigen::VectorXd& massDiagonal() const override { return mass_; }
  const std::vector<ConstraintDesc>& constraints() const override { return descs_; }
  std::vector<std::string> groupNames() const override { return {"rows"}; }
  void evaluateConstraint(int i, const Eigen::VectorXd& q, double, double* value, double* jac) const override {
    value[0] = G_.row(i).dot(q);
    for (long j = 0; j < G_.cols(); ++j) jac[j] = G_(i, j);
  }
  void constraintCurvature(int, const Eigen::VectorXd&, const Eigen::VectorXd&, double, double* out) const override { out[0] = 0; }
  void appliedForce(const Eigen::VectorXd&, const Eigen::VectorXd&, double, Eigen::VectorXd& f) const override {
    f.setZero(mass_.size());
  }
  double potentialEnergy(const Eigen::VectorXd&) const override { return 0; }

 private:
  Eigen::VectorXd mass_;
  Eigen::MatrixXd G_;
  std::vector<ConstraintDesc> descs_;
};
}  // namespace

TEST_CASE("spook: per-constraint eps_i, tau_i - the actual step map keeps |mu| <= 1 in random trials") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1), logEps(-10, -1), th(0.05, 10), lm(-1, 1);
  double worst = 0, worstRange = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 6, m = 5, r = 3;  // two redundant rows
    Eigen::VectorXd mass = Eigen::VectorXd::NullaryExpr(n, [&] { return std::pow(10.0, lm(rng)); });
    const Eigen::MatrixXd G = Eigen::MatrixXd::NullaryExpr(m, r, [&] { return u(rng); }) *
                              Eigen::MatrixXd::NullaryExpr(r, n, [&] { return u(rng); });
    LinearModel model(mass, G);
    SpookStepper spook(model);
    const double h = 0.02;
    for (int i = 0; i < m; ++i) spook.setRelaxation(i, {std::pow(10.0, logEps(rng)), th(rng) * h, 0});
    // Step map z = (q, v) → (q', v') is linear: its matrix column by column.
    Eigen::MatrixXd T(2 * n, 2 * n);
    for (int c = 0; c < 2 * n; ++c) {
      MechanicalState s{Eigen::VectorXd::Zero(n), Eigen::VectorXd::Zero(n), 0, 0};
      if (c < n) s.q[c] = 1e-3;
      else s.v[c - n] = 1e-3;
      spook.step(s, h);
      T.col(c) << s.q / 1e-3, s.v / 1e-3;
    }
    const Eigen::VectorXcd mu = Eigen::EigenSolver<Eigen::MatrixXd>(T).eigenvalues();
    // Free motion (G q = 0) gives Jordan blocks [[1, h], [0, 1]] whose computed eigenvalues move by
    // √(round-off) ~ 1e-8; the constrained modes are separated: count them strictly inside.
    int inside = 0;
    for (long i = 0; i < mu.size(); ++i) {
      worst = std::max(worst, std::abs(mu[i]));
      if (std::abs(mu[i]) < 1 - 1e-6) ++inside, worstRange = std::max(worstRange, std::abs(mu[i]));
    }
    CHECK(inside == 2 * r);
  }
  MESSAGE("60 trials, per-row eps in [1e-10, 0.1], tau/h in [0.05, 10]: max |mu| " << worst
                                                                                   << ", constrained modes max |mu| " << worstRange);
  CHECK(worst <= 1.0 + 1e-6);
}

TEST_CASE("spook: a joint stated twice steps without failure and gives the same motion") {
  const double h = 1.0 / 60;
  auto run = [&](bool duplicate, double dupEpsScale, SparseSolverKind solver) {
    LadderConfig c{3};
    c.duplicateFirstJoint = duplicate;
    Ladder ladder(c);
    SpookStepper spook(ladder.system(), SpookConfig{solver, {}});
    spook.setAllRelaxation({1e-8, 2 * h, 0});
    if (duplicate)  // rows 1 and 2 of the joint list: the original (after the 2 pins) and its copy
      for (int i = 0; i < int(ladder.system().constraints().size()); ++i)
        if (ladder.system().constraints()[size_t(i)].name.find("rod 3 tail") != std::string::npos ||
            ladder.system().constraints()[size_t(i)].name.find("duplicate") != std::string::npos)
          spook.setRelaxation(i, {1e-8 * dupEpsScale, 2 * h, 0});
    MechanicalState s = ladder.system().initialState();
    for (int k = 0; k < 120; ++k) spook.step(s, h);
    return s.q;
  };
  for (SparseSolverKind solver : {SparseSolverKind::Ldlt, SparseSolverKind::Umfpack}) {
    const Eigen::VectorXd single = run(false, 1, solver);
    // Two copies of compliance 2ε act as one of ε (springs in parallel): the same motion.
    const Eigen::VectorXd parallel = run(true, 2, solver);
    // Two copies of ε: a joint twice as stiff; the motion differs by the compliance stretch only.
    const Eigen::VectorXd stiff = run(true, 1, solver);
    MESSAGE(std::string(sparseSolverName(solver)) << ": |q_dup(2eps) - q| = " << (parallel - single).lpNorm<Eigen::Infinity>()
                                     << " m, |q_dup(eps) - q| = " << (stiff - single).lpNorm<Eigen::Infinity>() << " m");
    CHECK((parallel - single).lpNorm<Eigen::Infinity>() < 1e-10);
    CHECK((stiff - single).lpNorm<Eigen::Infinity>() < 1e-3);  // measured 4.2e-4 m after 2 s
  }
}

TEST_CASE("spook: eps = 0, tau = 0 with a redundant joint is a singular system, state kept") {
  for (SparseSolverKind solver : {SparseSolverKind::Ldlt, SparseSolverKind::Umfpack}) {
    LadderConfig c{3};
    c.duplicateFirstJoint = true;
    Ladder ladder(c);
    SpookStepper spook(ladder.system(), SpookConfig{solver, {}});
    spook.setAllRelaxation({0.0, 0.0, 0.0});
    MechanicalState s = ladder.system().initialState();
    const MechanicalState before = s;
    std::string message;
    try {
      spook.step(s, 1.0 / 60);
    } catch (const SingularSystem& e) {
      message = e.what();
    }
    MESSAGE(std::string(sparseSolverName(solver)) << ": " << message);
    CHECK(message.find("singular") != std::string::npos);
    CHECK(message.find("epsilon > 0") != std::string::npos);
    CHECK(s.q == before.q);
    CHECK(s.v == before.v);
    CHECK(s.t == before.t);
    // Without the duplicate, ε = 0 and τ = 0 is a regular (hard-constraint) system: no false alarm.
    Ladder plain(LadderConfig{3});
    SpookStepper hard(plain.system(), SpookConfig{solver, {}});
    hard.setAllRelaxation({0.0, 0.0, 0.0});
    MechanicalState p = plain.system().initialState();
    for (int k = 0; k < 60; ++k) hard.step(p, 1.0 / 60);
    CHECK(p.q.allFinite());
  }
}

TEST_CASE("spook: bad relaxation values are rejected") {
  Ladder ladder(LadderConfig{2});
  SpookStepper spook(ladder.system());
  CHECK_THROWS_AS(spook.setRelaxation(0, {-1.0, 0.1, 0}), BadInput);
  CHECK_THROWS_AS(spook.setAllRelaxation({1e-8, std::nan(""), 0}), BadInput);
  MechanicalState s = ladder.system().initialState();
  CHECK_THROWS_AS(spook.step(s, 0.0), BadInput);
}

TEST_CASE("spook: the per-constraint factors kept across steps follow a change of h or of a relaxation bit for bit") {
  Ladder ladder(LadderConfig{3});
  const RodSystem& sys = ladder.system();
  for (bool predicted : {false, true}) {
    SpookConfig config;
    config.predictedLinearisation = predicted;
    SpookStepper kept(sys, config);
    MechanicalState s = sys.initialState();
    for (int k = 0; k < 5; ++k) kept.step(s, 1.0 / 60);
    // Each step below from s: `kept` re-uses or recomputes its factors, `fresh` computes them the first time.
    auto same = [&](double h, int constraint, const ConstraintRelaxation* r) {
      SpookStepper fresh(sys, config);
      if (r) kept.setRelaxation(constraint, *r);
      for (int i = 0; i < int(sys.constraints().size()); ++i) fresh.setRelaxation(i, kept.relaxation(i));
      MechanicalState a = s, b = s;
      kept.step(a, h);
      fresh.step(b, h);
      return a.q == b.q && a.v == b.v && kept.multipliers() == fresh.multipliers();
    };
    const ConstraintRelaxation soft{1e-4, 0.1, 1e-8};
    CHECK(same(1.0 / 60, 0, nullptr));
    CHECK(same(1.0 / 120, 0, nullptr));  // another h
    CHECK(same(1.0 / 120, 3, &soft));    // another relaxation at the same h
    CHECK(same(1.0 / 60, 0, nullptr));
  }
}

// SpookStepper walks its rows in runs of constraints with the same kind, factors and τ: a run must end where a
// constraint's relaxation differs. Two decoupled pendulums (constraints: unit lengths 0, 1; pins 2, 3): with rod 2's
// constraints (1, 3) soft — four runs, alternating — each rod moves as it does when every constraint has its own.
TEST_CASE("spook: rows of constraints with other relaxations are not merged with their neighbours' (row runs)") {
  RodSystem sys;
  sys.addRod(1.0, 1.0, {0.5, 0, 0}, {1, 0, 0});
  sys.addRod(1.0, 1.0, {0.5, 3, 0}, {1, 0, 0});
  sys.addPin({0, -1}, {0, 0, 0});
  sys.addPin({1, -1}, {0, 3, 0});
  const ConstraintRelaxation stiff{1e-10, 2.0 / 60, 1e-8}, soft{1e-3, 0.2, 1e-8};
  for (bool predicted : {false, true}) {
    SpookConfig config;
    config.predictedLinearisation = predicted;
    SpookStepper mixed(sys, config), allStiff(sys, config), allSoft(sys, config);
    mixed.setAllRelaxation(stiff);
    mixed.setRelaxation(1, soft);
    mixed.setRelaxation(3, soft);
    allStiff.setAllRelaxation(stiff);
    allSoft.setAllRelaxation(soft);
    MechanicalState a = sys.initialState(), b = a, c = a;
    for (int k = 0; k < 30; ++k) {
      mixed.step(a, 1.0 / 60);
      allStiff.step(b, 1.0 / 60);
      allSoft.step(c, 1.0 / 60);
    }
    CHECK((a.q.head<6>() - b.q.head<6>()).lpNorm<Eigen::Infinity>() < 1e-13);
    CHECK((a.q.tail<6>() - c.q.tail<6>()).lpNorm<Eigen::Infinity>() < 1e-13);
    CHECK((b.q.tail<6>() - c.q.tail<6>()).lpNorm<Eigen::Infinity>() > 1e-6);  // the relaxations differ visibly
  }
}

// With the predicted linearisation J(q_k) and g_{k−1} need only values: those ConstraintJacobians are built without
// a matrix. Their values are the full one's bit for bit; asking one for J is a programming error.
TEST_CASE("spook: a values-only ConstraintJacobian gives the full one's values and refuses evaluate()") {
  Ladder ladder(LadderConfig{4});
  const RodSystem& sys = ladder.system();
  MechanicalState s = sys.initialState();
  SpookStepper spook(sys);
  for (int k = 0; k < 10; ++k) spook.step(s, 1.0 / 60);
  ConstraintJacobian full(sys), values(sys, false);
  full.evaluate(s.q, s.t);
  values.evaluateValues(s.q, s.t);
  CHECK(values.rows() == full.rows());
  CHECK(values.value() == full.value());
  CHECK(values.matrix().nonZeros() == 0);
  CHECK_THROWS_AS(values.evaluate(s.q, s.t), std::logic_error);
}

TEST_CASE("spook: stepInto gives step's result bit for bit, leaves its start as it was and needs two states") {
  for (const bool predicted : {false, true}) {
    CAPTURE(predicted);
    Ladder ladder(LadderConfig{6});
    SpookConfig config;
    config.predictedLinearisation = predicted;
    SpookStepper inPlace(ladder.system(), config), into(ladder.system(), config);
    MechanicalState a = ladder.system().initialState(), from = a, to;
    for (int k = 0; k < 40; ++k) {
      const MechanicalState start = from;
      inPlace.step(inPlace.beginStep(a, 1.0 / 60), a);
      into.stepInto(into.beginStep(from, 1.0 / 60), from, to);
      CHECK(from.q == start.q);  // the start untouched
      CHECK(from.v == start.v);
      REQUIRE(to.q == a.q);
      REQUIRE(to.v == a.v);
      CHECK(to.t == a.t);
      CHECK(to.step == a.step);
      CHECK(into.multipliers() == inPlace.multipliers());
      std::swap(from, to);
    }
    const SpookFrameStart start = into.beginStep(from, 1.0 / 60);
    CHECK_THROWS_AS(into.stepInto(start, from, from), BadInput);
  }
}
