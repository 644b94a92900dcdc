// tests/test_plan_ipopt_options.cpp — plan/ipopt_solver.h's named Ipopt options (the benchmarks' levers) and its
// timing split: a two-variable quadratic with one equality row solves to its known optimum with an integer, a string
// and a numeric option; an unknown option or a value that does not parse as the option's type ends the solve with
// status Invalid_Option; the CPU split of Ipopt's timing statistics is non-negative and within the total when asked
// for, and unasked Ipopt's clocks (plan/ipopt_clock.h: ours, not libipopt's) read nothing; a kept
// NlpStructure is filled once and answers the next solve's structure queries (one Jacobian evaluation fewer), and its
// Ipopt application serves the next solve with none of the last one's options.
#include <doctest/doctest.h>

#include "plan/ipopt_clock.h"
#include "plan/ipopt_solver.h"

using namespace varsim;

namespace {

// min (x - 1)^2 + (y - 2)^2  s.t.  x + y = 1: optimum (0, 1), cost 2.
class Quadratic : public Nlp {
 public:
  int numVariables() const override { return 2; }
  int numConstraints() const override { return 1; }
  void bounds(Eigen::VectorXd& xL, Eigen::VectorXd& xU, Eigen::VectorXd& gL, Eigen::VectorXd& gU) const override {
    xL = Eigen::VectorXd::Constant(2, -10.0), xU = Eigen::VectorXd::Constant(2, 10.0);
    gL = gU = Eigen::VectorXd::Ones(1);
  }
  Eigen::VectorXd initialGuess() const override { return Eigen::VectorXd::Zero(2); }
  double objective(const Eigen::VectorXd& x) const override { return (x - target()).squaredNorm(); }
  Eigen::VectorXd gradient(const Eigen::VectorXd& x) const override { return 2.0 * (x - target()); }
  Eigen::VectorXd constraints(const Eigen::VectorXd& x) const override { return Eigen::VectorXd::Constant(1, x.sum()); }
  void jacobian(const Eigen::VectorXd&, std::vector<Eigen::Triplet<double>>& out) const override {
    ++jacobians;
    out = {{0, 0, 1.0}, {0, 1, 1.0}};
  }
  bool hasHessian() const override { return true; }
  void hessian(const Eigen::VectorXd&, double objFactor, const Eigen::VectorXd&,
               std::vector<Eigen::Triplet<double>>& out) const override {
    ++hessians;
    out = {{0, 0, 2.0 * objFactor}, {1, 1, 2.0 * objFactor}};
  }
  mutable int jacobians = 0, hessians = 0;  // evaluations so far

 private:
  static Eigen::Vector2d target() { return {1.0, 2.0}; }
};

IpoptResult solveWith(std::vector<std::pair<std::string, std::string>> options, bool profile = false) {
  IpoptSettings s;
  s.options = std::move(options);
  s.profile = profile;
  return solveWithIpopt(Quadratic(), s);
}

}  // namespace

TEST_CASE("IpoptOptionsByNameReachTheSolver") {
  const IpoptResult r = solveWith({{"mumps_pivot_order", "2"}, {"mu_oracle", "probing"}, {"bound_push", "0.1"}});
  REQUIRE(r.solved);
  CHECK(r.x[0] == doctest::Approx(0.0).epsilon(1e-8));
  CHECK(r.x[1] == doctest::Approx(1.0).epsilon(1e-8));
  CHECK(r.objective == doctest::Approx(2.0).epsilon(1e-8));
  // A value of another type, one below the option's range, one not in its list, a name Ipopt does not know.
  for (const auto& bad : std::vector<std::pair<std::string, std::string>>{
           {"max_iter", "ten"}, {"max_iter", "10.5"}, {"bound_push", "-1"}, {"mu_oracle", "guess"}, {"no_such_option", "1"}}) {
    const IpoptResult b = solveWith({bad});
    CHECK_FALSE(b.solved);
    CHECK(b.status == "Invalid_Option");
  }
}

TEST_CASE("IpoptProfileSplitsTheSolveTime") {
  const IpoptResult r = solveWith({}, true);
  REQUIRE(r.solved);
  const IpoptProfile& p = r.profile;
  for (const double t : {p.functions, p.jacobian, p.hessian, p.factorization, p.backsolve, p.symbolic}) {
    CHECK(t >= 0.0);
    CHECK(t <= p.total + 1e-9);
  }
  CHECK(p.total >= 0.0);
  CHECK(p.total < 1.0);  // a two-variable problem: anything near a second is a timer read wrongly
}

TEST_CASE("IpoptClocksAreOursAndSilentUnlessAProfileIsAsked") {
  // libipopt's task timers call the clocks of plan/ipopt_clock.cpp (the reads are counted there), silenced unasked.
  const long before = IpoptClockScope::reads();
  const IpoptResult r = solveWith({});
  REQUIRE(r.solved);
  CHECK(IpoptClockScope::reads() - before > 20);
  CHECK(r.profile.total == 0.0);
  CHECK(IpoptClockScope::on());  // outside a solve: on, as Ipopt's own
  {
    const IpoptClockScope off(false);
    CHECK_FALSE(IpoptClockScope::on());
    {
      const IpoptClockScope on(true);
      CHECK(IpoptClockScope::on());
    }
    CHECK_FALSE(IpoptClockScope::on());
  }
  CHECK(IpoptClockScope::on());
}

TEST_CASE("IpoptStructureKeptAcrossSolvesIsEvaluatedOnce") {
  NlpStructure kept;
  kept.variables = 5;  // taken at other sizes: refilled
  IpoptSettings s;
  s.structure = &kept;
  const Quadratic first, second, uncached;
  const IpoptResult a = solveWithIpopt(first, s);
  CHECK(kept.variables == 2);
  CHECK(kept.constraints == 1);
  CHECK(kept.jacobianRows == std::vector<int>{0, 0});
  CHECK(kept.jacobianCols == std::vector<int>{0, 1});
  CHECK(kept.hessianRows == std::vector<int>{0, 1});
  CHECK(kept.hessianCols == std::vector<int>{0, 1});
  const IpoptResult b = solveWithIpopt(second, s);
  const IpoptResult c = solveWithIpopt(uncached, IpoptSettings{});
  REQUIRE(a.solved);
  REQUIRE(b.solved);
  CHECK(a.iterations == b.iterations);
  CHECK(b.x == a.x);
  CHECK(c.x == a.x);
  // The structure costs one Jacobian and one Hessian evaluation per solve without the kept structure, none with it.
  CHECK(first.jacobians == uncached.jacobians);
  CHECK(second.jacobians == first.jacobians - 1);
  CHECK(second.hessians == first.hessians - 1);
  // The kept Ipopt application forgets a solve's options: an option of one solve (a refused one too) is not the next's.
  REQUIRE(kept.application);
  s.options = {{"max_iter", "1"}};
  CHECK(solveWithIpopt(Quadratic(), s).status == "Maximum_Iterations_Exceeded");
  s.options = {{"no_such_option", "1"}};
  CHECK(solveWithIpopt(Quadratic(), s).status == "Invalid_Option");
  s.options.clear();
  const IpoptResult d = solveWithIpopt(Quadratic(), s);
  CHECK(d.iterations == a.iterations);
  CHECK(d.x == a.x);
}
