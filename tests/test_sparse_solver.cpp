// The SPOOK linear solve behind SparseSolver: UMFPACK (printed unsymmetric matrix), LDLᵀ
// (quasi-definite form) and the block Schur solve (1 or 2 threads) agree to round-off on ladder matrices; symbolic analysis is done once per
// pattern and redone when the pattern changes; singular matrices are reported, never a crash (also from the
// block solver's helper thread).
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <limits>
#include <random>

#include "engine/integrators/constraint_jacobian.h"
#include "engine/integrators/rigid_rod_model.h"
#include "engine/models/hanging_chain.h"
#include "engine/models/ladder.h"
#include "engine/solvers/block_tridiagonal_solver.h"
#include "engine/solvers/sparse_solver.h"

using namespace varsim;

namespace {
struct Saddle {
  Eigen::VectorXd M, D, r, t;
  SparseMatrixD J;
};
Saddle ladderSaddle(int links, double epsilon, unsigned seed) {
  Ladder ladder(LadderConfig{links});
  ConstraintJacobian jac(ladder.system());
  // A perturbed configuration so u is not axis-aligned (all entries of the pattern nonzero).
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-0.1, 0.1);
  Eigen::VectorXd q = ladder.system().initialState().q;
  for (long i = 0; i < q.size(); ++i) q[i] += u(rng);
  jac.evaluate(q, 0.0);
  Saddle s{ladder.system().massDiagonal(), Eigen::VectorXd::Constant(jac.rows(), 4 * epsilon / (9.0 / 3600)),
           Eigen::VectorXd::NullaryExpr(q.size(), [&] { return u(rng); }), Eigen::VectorXd::NullaryExpr(jac.rows(), [&] { return u(rng); }),
           jac.matrix()};
  return s;
}
}  // namespace

TEST_CASE("sparse solver: UMFPACK and LDLT agree to round-off and match a dense solve") {
  for (double eps : {1e-12, 1e-8, 1e-2}) {
    const Saddle s = ladderSaddle(8, eps, 3);
    auto lu = makeSparseSolver(SparseSolverKind::Umfpack), ldlt = makeSparseSolver(SparseSolverKind::Ldlt);
    Eigen::VectorXd x1, y1, x2, y2;
    lu->factor(s.M, s.J, s.D);
    lu->solve(s.r, s.t, x1, y1);
    ldlt->factor(s.M, s.J, s.D);
    ldlt->solve(s.r, s.t, x2, y2);
    // Dense reference of the printed matrix [[M, -Jᵀ], [J, D]].
    const long n = s.M.size(), m = s.D.size();
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n + m, n + m);
    K.topLeftCorner(n, n) = s.M.asDiagonal();
    K.topRightCorner(n, m) = -Eigen::MatrixXd(s.J).transpose();
    K.bottomLeftCorner(m, n) = Eigen::MatrixXd(s.J);
    K.bottomRightCorner(m, m) = s.D.asDiagonal();
    Eigen::VectorXd b(n + m);
    b << s.r, s.t;
    const Eigen::VectorXd z = K.partialPivLu().solve(b);
    const double scaleX = z.head(n).lpNorm<Eigen::Infinity>(), scaleY = z.tail(m).lpNorm<Eigen::Infinity>();
    const double dx = (x1 - x2).lpNorm<Eigen::Infinity>() / scaleX, dy = (y1 - y2).lpNorm<Eigen::Infinity>() / scaleY;
    const double ex = (x2 - z.head(n)).lpNorm<Eigen::Infinity>() / scaleX, ey = (y2 - z.tail(m)).lpNorm<Eigen::Infinity>() / scaleY;
    MESSAGE("eps " << eps << ": |x_lu - x_ldlt|/|x| " << dx << ", |y_lu - y_ldlt|/|y| " << dy << "; LDLT vs dense " << ex << ", " << ey
                   << "; factor nnz LU " << lu->stats().factorNnz << ", LDLT " << ldlt->stats().factorNnz);
    CHECK(dx < 1e-10);
    CHECK(dy < 1e-8);
    CHECK(ex < 1e-10);
    CHECK(ey < 1e-8);
  }
}

TEST_CASE("sparse solver: symbolic analysis once per pattern, redone when it changes") {
  for (SparseSolverKind kind : {SparseSolverKind::Ldlt, SparseSolverKind::Umfpack, SparseSolverKind::Block}) {
    auto solver = makeSparseSolver(kind);
    Eigen::VectorXd x, y;
    for (unsigned seed = 0; seed < 5; ++seed) {  // same pattern, new values
      const Saddle s = ladderSaddle(6, 1e-8, seed);
      solver->factor(s.M, s.J, s.D);
      solver->solve(s.r, s.t, x, y);
      CHECK(solver->stats().analyses == 1);
      CHECK(solver->stats().lastAnalysisReused == (seed > 0));
    }
    CHECK(solver->stats().factorizations == 5);
    const Saddle other = ladderSaddle(7, 1e-8, 0);  // a different ladder: new pattern
    solver->factor(other.M, other.J, other.D);
    solver->solve(other.r, other.t, x, y);
    CHECK(solver->stats().analyses == 2);
    CHECK(x.size() == other.M.size());
    CHECK(solver->stats().factorNnz > other.J.nonZeros());
  }
}

TEST_CASE("sparse solver: a pattern named by its ConstraintJacobian's id is known without compare; a new id re-analyses") {
  Ladder six(LadderConfig{6}), seven(LadderConfig{7});
  ConstraintJacobian a(six.system()), b(seven.system()), a2(six.system()), valuesOnly(six.system(), false);
  ConstraintJacobian copy(a);
  CHECK(a.patternId() != 0);
  CHECK(b.patternId() != a.patternId());
  CHECK(a2.patternId() != a.patternId());  // the same pattern built again: a new id (ids are never reused)
  CHECK(copy.patternId() == a.patternId());
  CHECK(valuesOnly.patternId() == 0);
  for (SparseSolverKind kind : {SparseSolverKind::Ldlt, SparseSolverKind::Umfpack, SparseSolverKind::Block}) {
    auto named = makeSparseSolver(kind), compared = makeSparseSolver(kind);
    Eigen::VectorXd x1, y1, x2, y2;
    auto step = [&](const Ladder& ladder, ConstraintJacobian& jac, unsigned seed, bool withId) {
      std::mt19937 rng(seed);
      std::uniform_real_distribution<double> u(-0.1, 0.1);
      Eigen::VectorXd q = ladder.system().initialState().q;
      for (long i = 0; i < q.size(); ++i) q[i] += u(rng);
      jac.evaluate(q, 0.0);
      const Eigen::VectorXd M = ladder.system().massDiagonal() * (1.0 + u(rng));
      const Eigen::VectorXd D = Eigen::VectorXd::Constant(jac.rows(), 1e-7);
      const Eigen::VectorXd r = Eigen::VectorXd::NullaryExpr(q.size(), [&] { return u(rng); });
      const Eigen::VectorXd t = Eigen::VectorXd::NullaryExpr(jac.rows(), [&] { return u(rng); });
      if (withId) named->factor(M, jac.matrix(), D, jac.patternId(), nullptr);
      else named->factor(M, jac.matrix(), D);
      named->solve(r, t, x1, y1);
      compared->factor(M, jac.matrix(), D);
      compared->solve(r, t, x2, y2);
      CHECK(x1 == x2);  // bit for bit: the same analysis of the same pattern
      CHECK(y1 == y2);
      return named->stats().analyses;
    };
    CHECK(step(six, a, 0, true) == 1);
    CHECK(step(six, a, 1, true) == 1);
    CHECK(named->stats().lastAnalysisReused);
    CHECK(step(six, copy, 2, true) == 1);  // a copy: another matrix object, the same pattern and id
    CHECK(step(seven, b, 3, true) == 2);  // a changed pattern (its own id) is analysed
    CHECK(step(six, a2, 4, true) == 3);   // the same pattern under a new id: analysed once more, not compared
    CHECK(step(six, a2, 5, true) == 3);
    CHECK(step(six, a2, 6, false) == 4);  // no id: no copy of the pattern was kept to compare with
    CHECK(step(six, a2, 7, false) == 4);  // from here the compare proves it
    CHECK(step(six, a2, 8, true) == 5);
    CHECK(compared->stats().analyses == 3);  // the compare path: six, seven, six
  }
}

TEST_CASE("sparse solver: a mass shift handed to factor() gives the solve of the summed M bit for bit") {
  for (SparseSolverKind kind : {SparseSolverKind::Ldlt, SparseSolverKind::Umfpack, SparseSolverKind::Block}) {
    const Saddle s = ladderSaddle(6, 1e-8, 11);
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(0.0, 3.0);
    const Eigen::VectorXd shift = Eigen::VectorXd::NullaryExpr(s.M.size(), [&] { return u(rng); });
    const Eigen::VectorXd summed = s.M + shift;
    auto shifted = makeSparseSolver(kind), plain = makeSparseSolver(kind);
    Eigen::VectorXd x1, y1, x2, y2;
    for (int pass = 0; pass < 2; ++pass) {  // the second pass: M unchanged after a shifted factor() is not stale
      shifted->factor(s.M, s.J, s.D, 0, &shift);
      shifted->solve(s.r, s.t, x1, y1);
      plain->factor(summed, s.J, s.D);
      plain->solve(s.r, s.t, x2, y2);
      CHECK(x1 == x2);
      CHECK(y1 == y2);
      shifted->factor(s.M, s.J, s.D);
      shifted->solve(s.r, s.t, x1, y1);
      plain->factor(s.M, s.J, s.D);
      plain->solve(s.r, s.t, x2, y2);
      CHECK(x1 == x2);
      CHECK(y1 == y2);
    }
    const Eigen::VectorXd wrong = Eigen::VectorXd::Ones(s.M.size() - 1);
    CHECK_THROWS_AS(shifted->factor(s.M, s.J, s.D, 0, &wrong), BadInput);
  }
}

TEST_CASE("sparse solver: a singular matrix is reported as SingularSystem, never a crash") {
  HangingChainConfig c;
  c.rods = 4;
  HangingChain chain(c);
  ConstraintJacobian jac(chain.system());
  jac.evaluate(chain.system().initialState().q, 0);
  // Stack J twice: every row redundant; D = 0.
  SparseMatrixD J2(2 * jac.rows(), jac.matrix().cols());
  std::vector<Eigen::Triplet<double, int>> trip;
  for (int k = 0; k < jac.matrix().outerSize(); ++k)
    for (SparseMatrixD::InnerIterator it(jac.matrix(), k); it; ++it) {
      trip.emplace_back(int(it.row()), int(it.col()), it.value());
      trip.emplace_back(int(it.row()) + jac.rows(), int(it.col()), it.value());
    }
  J2.setFromTriplets(trip.begin(), trip.end());
  J2.makeCompressed();
  const Eigen::VectorXd D = Eigen::VectorXd::Zero(J2.rows());
  for (SparseSolverKind kind : {SparseSolverKind::Ldlt, SparseSolverKind::Umfpack, SparseSolverKind::Block}) {
    auto solver = makeSparseSolver(kind);
    Eigen::VectorXd x, y;
    // The block back end factors inside the next solve (fused with it): the pair throws.
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(J2.cols()), zeros = Eigen::VectorXd::Zero(J2.rows());
    CHECK_THROWS_AS((solver->factor(chain.system().massDiagonal(), J2, D), solver->solve(ones, zeros, x, y)), SingularSystem);
    if (kind != SparseSolverKind::Block) CHECK_THROWS_AS(solver->factor(chain.system().massDiagonal(), J2, D), SingularSystem);
    // D > 0 makes it regular again (1e-6: the unit rows' J M⁻¹ Jᵀ is 1.2e4 here; D = 1e-9 is below
    // 1e-13 of it and is, correctly, still reported as singular to working precision).
    const Eigen::VectorXd regular = Eigen::VectorXd::Constant(J2.rows(), 1e-6);  // outlives factor(): solve reads D
    solver->factor(chain.system().massDiagonal(), J2, regular);
    solver->solve(Eigen::VectorXd::Ones(J2.cols()), Eigen::VectorXd::Zero(J2.rows()), x, y);
    CHECK(x.allFinite());
    // The two copies of each row share the multiplier equally.
    CHECK((y.head(jac.rows()) - y.tail(jac.rows())).lpNorm<Eigen::Infinity>() < 1e-6 * y.lpNorm<Eigen::Infinity>());
    // A non-finite right-hand side fails the residual check (the block solver runs it inside its last pass).
    Eigen::VectorXd bad = Eigen::VectorXd::Ones(J2.cols());
    bad[1] = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(solver->solve(bad, Eigen::VectorXd::Zero(J2.rows()), x, y), SingularSystem);
    CHECK_THROWS_AS(solver->solve(Eigen::VectorXd::Ones(J2.cols()), Eigen::VectorXd::Constant(J2.rows(), std::numeric_limits<double>::infinity()), x, y),
                    SingularSystem);
  }
  CHECK_THROWS_AS(parseSparseSolverKind("cholesky"), BadInput);
}

namespace {
// The saddle system of one SPOOK step of a ladder or chain in a random pose (both rod models).
Saddle randomSaddle(const RodSystem& sys, bool rigid, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd q = sys.initialState().q;
  for (long i = 0; i < q.size(); ++i) q[i] += 0.3 * u(rng);
  for (const auto& b : sys.bodies())
    if (b.isRod) q.segment<3>(b.offset + 3).normalize();
  const RigidRodModel twist(sys);
  ConstraintJacobian jac(rigid ? static_cast<const ConstrainedModel&>(twist) : sys);
  jac.evaluate(q, 0.0);
  const double h = 1.0 / 60, eps = 1e-8;
  return {sys.massDiagonal(), Eigen::VectorXd::Constant(jac.rows(), 4 * eps / (h * h * 9)),
          Eigen::VectorXd::NullaryExpr(q.size(), [&] { return u(rng); }),
          Eigen::VectorXd::NullaryExpr(jac.rows(), [&] { return u(rng); }), jac.matrix()};
}

// Two block solvers (one and two threads; a re-used and a fresh one) solve s bit-identically.
void checkSameBits(BlockTridiagonalSolver& one, BlockTridiagonalSolver& two, const Saddle& s) {
  Eigen::VectorXd x1, y1, x2, y2;
  one.factor(s.M, s.J, s.D);
  one.solve(s.r, s.t, x1, y1);
  two.factor(s.M, s.J, s.D);
  two.solve(s.r, s.t, x2, y2);
  CHECK(x1 == x2);
  CHECK(y1 == y2);
}
}  // namespace

TEST_CASE("sparse solver: block (1 and 2 threads) and LDLT agree with UMFPACK to 1e-12 on random ladders and chains") {
  double worst = 0;
  int maxWidth = 0;
  for (unsigned seed = 1; seed <= 6; ++seed)
    for (bool rigid : {false, true}) {
      Ladder ladder(LadderConfig{int(seed) * 7});
      HangingChain chain(HangingChainConfig{int(seed) * 40, 0.25, 0.25, 1.2, 0.3, {0, 0, -9.81}, seed % 2 ? 0.5 : 0.0});
      for (const RodSystem* sys : {&ladder.system(), &chain.system()}) {
        const Saddle s = randomSaddle(*sys, rigid, seed);
        auto lu = makeSparseSolver(SparseSolverKind::Umfpack), ldlt = makeSparseSolver(SparseSolverKind::Ldlt);
        BlockTridiagonalSolver block, block2;
        block2.setThreads(2);
        Eigen::VectorXd x1, y1, x2, y2, x3, y3, x4, y4;
        lu->factor(s.M, s.J, s.D);
        lu->solve(s.r, s.t, x1, y1);
        block.factor(s.M, s.J, s.D);
        block.solve(s.r, s.t, x2, y2);
        ldlt->factor(s.M, s.J, s.D);
        ldlt->solve(s.r, s.t, x3, y3);
        for (int rep = 0; rep < 2; ++rep) {  // the second factor/solve re-uses the analysis and the thread
          block2.factor(s.M, s.J, s.D);
          block2.solve(s.r, s.t, x4, y4);
          CHECK(x4 == x2);  // bit-identical, 1 vs 2 threads
          CHECK(y4 == y2);
        }
        for (const auto* xy : {&x2, &x3}) {
          const Eigen::VectorXd& x = *xy;
          const Eigen::VectorXd& y = xy == &x2 ? y2 : y3;
          const double dx = (x1 - x).lpNorm<Eigen::Infinity>() / x1.lpNorm<Eigen::Infinity>();
          const double dy = (y1 - y).lpNorm<Eigen::Infinity>() / y1.lpNorm<Eigen::Infinity>();
          worst = std::max({worst, dx, dy});
          CHECK(dx < 1e-12);
          CHECK(dy < 1e-12);
        }
        maxWidth = std::max(maxWidth, block.maxLevelWidth());
      }
    }
  MESSAGE("block and LDLT vs UMFPACK on 24 random ladders/chains: worst relative difference " << worst << ", widest level "
                                                                                                << maxWidth << " rows");
  CHECK(maxWidth <= 24);  // a one-dimensional graph: levels stay a few joints wide
}

TEST_CASE("sparse solver: the block solver's two threads are bit-identical on a long ladder, and 3 threads are refused") {
  Ladder ladder(LadderConfig{300});
  const Saddle s = randomSaddle(ladder.system(), false, 11);
  BlockTridiagonalSolver one, two;
  two.setThreads(2);
  checkSameBits(one, two, s);
  // Both chains carry work: the middle level splits the levels by cost.
  CHECK(one.layout()->chain[0].size() > 100);
  CHECK(one.layout()->chain[1].size() > 100);
  CHECK_THROWS_AS(two.setThreads(3), BadInput);
  CHECK_THROWS_AS(makeSparseSolver(SparseSolverKind::Ldlt)->setThreads(0), BadInput);
}

// The residual check's row vectors live in the factor store once the backward pass is done (c090602): the next
// factorisation must not see them. A solver re-used over several systems of one pattern solves each bit for bit like
// a fresh solver, and the rod models' stores are large enough for the scratch (else it would use its own vectors).
TEST_CASE("sparse solver: the residual check in the block solver's dead factor store leaves the next solve unchanged") {
  for (bool rigid : {false, true}) {
    Ladder ladder(LadderConfig{30});
    HangingChain chain(HangingChainConfig{60, 0.25, 0.25, 1.2, 0.3, {0, 0, -9.81}, 0.5});
    for (const RodSystem* sys : {&ladder.system(), &chain.system()}) {
      BlockTridiagonalSolver reused;
      for (unsigned seed = 1; seed <= 3; ++seed) {
        const Saddle s = randomSaddle(*sys, rigid, seed);
        BlockTridiagonalSolver fresh;
        checkSameBits(reused, fresh, s);
        CHECK(reused.layout()->storeSize >= 2 * s.J.rows());
      }
      CHECK(reused.stats().analyses == 1);  // one pattern: the store was re-used after each residual check
    }
  }
}

TEST_CASE("sparse solver: a singular level in either lane is reported with two threads, and the helper keeps working") {
  HangingChain chain(HangingChainConfig{60, 0.25, 0.25, 1.2, 0.3, {0, 0, -9.81}, 0.0});
  const Saddle s = randomSaddle(chain.system(), true, 5);
  BlockTridiagonalSolver one, two;
  two.setThreads(2);
  Eigen::VectorXd x1, y1, x2, y2;
  for (long k : {0L, long(s.J.rows()) - 1}) {  // the chain's two ends: levels of different lanes
    // Row k of J zeroed (same pattern) and D_k = 0: S_kk and its couplings are exactly 0, so is the pivot.
    SparseMatrixD J2 = s.J;
    for (int c = 0; c < J2.outerSize(); ++c)
      for (SparseMatrixD::InnerIterator it(J2, c); it; ++it)
        if (it.row() == k) it.valueRef() = 0.0;
    Eigen::VectorXd D2 = s.D;
    D2[k] = 0.0;
    INFO("zeroed row " << k);
    CHECK_THROWS_AS((two.factor(s.M, J2, D2), two.solve(s.r, s.t, x2, y2)), SingularSystem);
    CHECK_THROWS_AS((one.factor(s.M, J2, D2), one.solve(s.r, s.t, x1, y1)), SingularSystem);
    for (int rep = 0; rep < 3; ++rep) checkSameBits(one, two, s);  // the helper took no harm
  }
  const BlockLayout& lay = *one.layout();
  CHECK(lay.laneOfPosition(lay.position[0]) != lay.laneOfPosition(lay.position[size_t(s.J.rows() - 1)]));
  CHECK(lay.chain[0].size() > 10);
  CHECK(lay.chain[1].size() > 10);
}

TEST_CASE("constraint Jacobian: structural zeros are zero in every pose and the stored J equals the dense blocks") {
  Ladder ladder(LadderConfig{4});
  HangingChain chain(HangingChainConfig{6, 0.25, 0.25, 1.2, 0.3, {0, 0, -9.81}, 0.5});
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  long skipped = 0;
  for (const RodSystem* sys : {&ladder.system(), &chain.system()})
    for (bool rigid : {false, true}) {
      const RigidRodModel twist(*sys);
      const ConstrainedModel& model = rigid ? static_cast<const ConstrainedModel&>(twist) : *sys;
      ConstraintJacobian jac(model);
      for (int trial = 0; trial < 5; ++trial) {
        Eigen::VectorXd q = sys->initialState().q;
        for (long i = 0; i < q.size(); ++i) q[i] += u(rng);
        jac.evaluate(q, 0.0);
        Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(jac.rows(), q.size());
        for (int i = 0; i < int(model.constraints().size()); ++i) {
          const ConstraintDesc& d = model.constraints()[size_t(i)];
          const size_t width = d.columns.size();
          std::vector<double> value(size_t(d.rows)), block(size_t(d.rows) * width);
          if (d.rows > 0) model.evaluateConstraint(i, q, 0.0, value.data(), block.data());
          for (int r = 0; r < d.rows; ++r)
            for (size_t c = 0; c < width; ++c) {
              const double e = block[size_t(r) * width + c];
              if (!d.structuralZero.empty() && d.structuralZero[size_t(r) * width + c]) {
                CHECK(e == 0.0);
                ++skipped;
              }
              dense(jac.rowOffset(i) + r, d.columns[c]) = e;
            }
        }
        CHECK(Eigen::MatrixXd(jac.matrix()) == dense);
      }
    }
  CHECK(skipped > 0);
}
