// tests/test_kkt_order_cache.cpp — the KKT LDL^T's orders kept across solves of one pattern (plan/kkt_order_cache.h)
// as Ipopt drives the MA27 routines: a later solve's analysis hands out the order the earlier one factorised, and its
// factorisations (recording L's row patterns, then using them) reach the residual (<= 1e-12) and the exact inertia of
// Eigen on new values; a cached order whose
// pivot fails on a solve's first values gives way to a fresh order (a matrix the cached order finds singular
// factorises); a solve outside the cache's scope leaves it alone; patterns beyond kEntries replace the oldest.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <random>
#include <vector>

#include "plan/kkt_order_cache.h"
#include "tests/kkt_harness.h"

using namespace varsim;
using test::Ma27Run, test::negativeEigenvalues, test::randomKkt, test::Triplets;

namespace {

Eigen::MatrixXd denseOf(const Triplets& t) {  // duplicates summed
  Eigen::MatrixXd d = Eigen::MatrixXd::Zero(t.n, t.n);
  for (size_t e = 0; e < t.values.size(); ++e) {
    const int i = t.rows[e] - 1, j = t.cols[e] - 1;
    d(i, j) += t.values[e];
    if (i != j) d(j, i) += t.values[e];
  }
  return d;
}

kkt::Pattern patternOf(const Triplets& t) { return {t.n, int(t.values.size()), t.rows.data(), t.cols.data()}; }

// Factorises t, checks the inertia against Eigen's and a solve's residual; returns INFO(1).
int solveChecked(Ma27Run& run, Triplets& t, std::mt19937& rng) {
  run.factoriseGrowing(t);
  if (run.info[0] != 0) return run.info[0];
  const Eigen::MatrixXd dense = denseOf(t);
  CHECK(run.info[14] == negativeEigenvalues(dense));
  const Eigen::VectorXd b = Eigen::VectorXd::NullaryExpr(t.n, [&] { return std::normal_distribution<>()(rng); });
  const Eigen::VectorXd x = run.solve(t.n, b);
  CHECK((dense * x - b).norm() <= 1e-12 * (dense.norm() * x.norm() + b.norm()));
  return 0;
}

}  // namespace

TEST_CASE("KktLdlReusesTheOrderOfAPatternAcrossSolvesWithOtherValues") {
  std::mt19937 rng(41);
  std::uniform_real_distribution<double> scale(0.5, 2.0);
  Eigen::MatrixXd dense;
  Triplets t = randomKkt(40, 18, true, 0.0, rng, dense, 0.5);  // half the variables without curvature: pairs
  kkt::OrderCache cache;
  std::vector<int> first;
  for (int solve = 0; solve < 3; ++solve) {
    INFO("solve " << solve);
    if (solve > 0)
      for (double& v : t.values) v *= scale(rng);  // the same pattern, other values (zeros stay zero)
    const kkt::ActiveOrderCache active(&cache);
    Ma27Run run(t);
    const kkt::OrderCache::Entry* entry = cache.find(patternOf(t));
    CHECK(cache.hits() == solve);
    if (solve > 0) {  // the analysis handed out the order the previous solve factorised
      REQUIRE(entry != nullptr);
      CHECK(entry->untested);
      CHECK(run.ikeep == entry->keep);
    }
    REQUIRE(solveChecked(run, t, rng) == 0);
    entry = cache.find(patternOf(t));
    REQUIRE(entry != nullptr);
    CHECK_FALSE(entry->untested);
    if (solve == 0) first = entry->keep;
    else CHECK(entry->keep == first);  // these values need no other order
    // L's row patterns: recorded by the first factorisation in the cached order, used by the next
    CHECK(entry->lRows.complete == (solve > 0));
    if (solve > 0) CHECK(entry->lRows.start.back() == int(entry->lRows.rows.size()));
  }
  Ma27Run outside(t);  // no active cache: AMD's order, the cache untouched
  CHECK(cache.hits() == 2);
  CHECK(outside.ikeep != first);
  REQUIRE(solveChecked(outside, t, rng) == 0);
}

// x1, x2, constraint c = 2 x1 + x2, and w1..w3 coupled to each other and to x2 (AMD takes c before x2): the order
// has c after x1, its strongest neighbour, and before x2. With c's coupling to x1 at 0, c's pivot is exactly 0 in
// that order: with replacement off (CNTL(4) = 0) the cached order is singular, the fresh one (c after or paired with
// x2) is not.
TEST_CASE("KktLdlLeavesACachedOrderWhosePivotFailsForAFreshOne") {
  Triplets t;
  t.n = 6;  // x1, x2, c, w1, w2, w3
  t.add(0, 0, 1.0), t.add(1, 1, 1.0), t.add(2, 2, -0.0), t.add(2, 0, 2.0), t.add(2, 1, 1.0);
  for (const int w : {3, 4, 5}) t.add(w, w, 2.0), t.add(w, 1, 0.5);
  t.add(4, 3, 0.1), t.add(5, 3, 0.1), t.add(5, 4, 0.1);
  std::mt19937 rng(42);
  kkt::OrderCache cache;
  {
    const kkt::ActiveOrderCache active(&cache);
    Ma27Run run(t);
    run.cntl[3] = 0.0;
    REQUIRE(solveChecked(run, t, rng) == 0);
  }
  const kkt::OrderCache::Entry* entry = cache.find(patternOf(t));
  REQUIRE(entry != nullptr);
  const std::vector<int> cached = entry->keep;
  std::vector<int> position(6);
  for (int k = 0; k < 6; ++k) position[size_t(kkt::pivotRow(cached.data(), k))] = k;
  REQUIRE(position[0] < position[2]);  // c after x1, its strongest neighbour (no pair needed) ...
  REQUIRE(position[2] < position[1]);  // ... and before x2
  t.values[3] = 0.0;  // c's coupling to x1
  {
    Ma27Run fresh(t);  // without the cache: factorises
    fresh.cntl[3] = 0.0;
    REQUIRE(solveChecked(fresh, t, rng) == 0);
  }
  const kkt::ActiveOrderCache active(&cache);
  Ma27Run run(t);
  run.cntl[3] = 0.0;
  CHECK(run.ikeep == cached);
  CHECK(solveChecked(run, t, rng) == 0);
  CHECK(run.info[14] == 1);
  CHECK(cache.find(patternOf(t))->keep != cached);  // the fresh order went back to the cache
  run.factorise(t);  // the cached order is no longer in use: the fresh order factorises again
  CHECK(run.info[0] == 0);
}

TEST_CASE("KktOrderCacheKeepsAtMostKEntriesPatterns") {
  kkt::OrderCache cache;
  std::vector<Triplets> ts(kkt::OrderCache::kEntries + 1);
  for (size_t i = 0; i < ts.size(); ++i) {  // diagonal matrices of sizes 1 .. kEntries + 1
    ts[i].n = int(i) + 1;
    for (int k = 0; k <= int(i); ++k) ts[i].add(k, k, 1.0);
    const std::vector<int> keep(kkt::keepSize(ts[i].n), int(i));
    cache.store(patternOf(ts[i]), keep.data());
  }
  CHECK(cache.find(patternOf(ts[0])) == nullptr);  // the oldest gave way
  for (size_t i = 1; i < ts.size(); ++i) {
    const kkt::OrderCache::Entry* e = cache.reuse(patternOf(ts[i]));
    REQUIRE(e != nullptr);
    CHECK(e->keep.front() == int(i));
  }
  CHECK(cache.hits() == int(kkt::OrderCache::kEntries));
  Triplets other = ts[2];  // same sizes, another pattern: not the same entry
  other.cols[2] = 1, other.rows[2] = 3;
  CHECK(cache.find(patternOf(other)) == nullptr);
  // the oldest slot (ts[1]'s) taken by another pattern with the same keep: its row patterns are not handed on
  const std::vector<int> keep1(kkt::keepSize(ts[1].n), 1);
  cache.find(patternOf(ts[1]))->lRows.complete = true;
  Triplets same = ts[1];
  same.add(1, 0, 0.5);
  kkt::OrderCache::Entry& e = cache.store(patternOf(same), keep1.data());
  CHECK(cache.find(patternOf(ts[1])) == nullptr);
  CHECK_FALSE(e.lRows.complete);
  CHECK(e.rowsFor(keep1.data()) == &e.lRows);
}
