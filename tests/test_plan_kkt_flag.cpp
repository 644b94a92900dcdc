// `varsim plan --kkt ldl|mumps`: Ipopt's linear solver for the plan's KKT systems (plan/ipopt_solver.h). Both
// solvers reach the same plan to Ipopt's tolerance, LDL^T is the default (byte for byte the same files as --kkt ldl),
// and a bad or repeated value exits 2 naming the flag, the value and the allowed names (the parser of `varsim mpc`).
#include <doctest/doctest.h>

#include <string>

#include "plan/ipopt_solver.h"
#include "tests/plan_harness.h"

using varsim::test::HeadlessResult;
using varsim::test::runCaptured;
using varsim::test::testOut;

namespace {

// car_goto (12 Ipopt iterations, 0.05 s CPU) with `extra` flags; writes NAME.csv and NAME_in.csv.
HeadlessResult carGoto(const std::string& name, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"plan", varsim::test::problemFile("car_goto"),
                                   "--csv", testOut(name + ".csv"), "--inputs", testOut(name + "_in.csv")};
  args.insert(args.end(), extra.begin(), extra.end());
  return runCaptured(args);
}

}  // namespace

TEST_CASE("varsim plan --kkt: ldl (the default) and mumps solve car_goto to the same plan") {
  CHECK(varsim::IpoptSettings{}.kktSolver == varsim::KktSolver::Ldl);
  const HeadlessResult ldl = carGoto("kkt_ldl", {"--kkt", "ldl"});
  const HeadlessResult mumps = carGoto("kkt_mumps", {"--kkt", "mumps"});
  const HeadlessResult plain = carGoto("kkt_default", {});
  INFO(ldl.err << mumps.err << plain.err);
  REQUIRE(ldl.exitCode == 0);
  REQUIRE(mumps.exitCode == 0);
  REQUIRE(plain.exitCode == 0);
  CHECK(varsim::test::readFile(testOut("kkt_default.csv")) == varsim::test::readFile(testOut("kkt_ldl.csv")));
  const varsim::test::CsvTable a = varsim::test::readCsv(testOut("kkt_ldl.csv"));
  const varsim::test::CsvTable b = varsim::test::readCsv(testOut("kkt_mumps.csv"));
  REQUIRE(a.rows.size() == b.rows.size());
  REQUIRE(a.header == b.header);
  // Ipopt's tol 1e-5 on the scaled NLP error: the two factorisations' plans agree far inside the car's metres.
  CHECK(varsim::test::maxColumnDifference(a, b, a.header) < 1e-4);
}

TEST_CASE("varsim plan --kkt: a bad value or a repeated flag exits 2 naming it and the allowed names") {
  for (const char* bad : {"qr", "", "LDL", "ma27"}) {
    const HeadlessResult r = carGoto("kkt_bad", {"--kkt", bad});
    INFO(bad << ": " << r.err);
    CHECK(r.exitCode == 2);
    CHECK(r.err.find(std::string("--kkt '") + bad + "': allowed ldl, mumps") != std::string::npos);
  }
  const HeadlessResult twice = carGoto("kkt_twice", {"--kkt", "ldl", "--kkt", "mumps"});
  CHECK(twice.exitCode == 2);
  CHECK(twice.err.find("--kkt given twice") != std::string::npos);
}
