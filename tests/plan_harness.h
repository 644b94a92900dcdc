// tests/plan_harness.h — what the `varsim plan` tests (test_plan_*.cpp) share: the preset problem files, running
// `varsim plan` with --set overrides in this process, and the largest |plan - replay| over CSV columns (the
// replay-equals-plan checks). Header-only, test use.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/csv_table.h"
#include "tests/headless_capture.h"

namespace varsim::test {

// assets/problems/NAME.json of the source tree.
inline std::string problemFile(const std::string& name) {
  return std::string(VARSIM_TEST_DATA) + "/../../assets/problems/" + name + ".json";
}

// scripts/test.sh sets VARSIM_SANITIZED for the ASan/UBSan pass: the plan tests then shorten their solves.
inline bool sanitizedRun() { return std::getenv("VARSIM_SANITIZED") != nullptr; }

// `varsim plan PROBLEM [--set s]... --csv CSV --inputs INPUTS`, stderr captured.
inline HeadlessResult runPlan(const std::string& problem, const std::vector<std::string>& sets, const std::string& csv,
                              const std::string& inputs) {
  std::vector<std::string> args = {"plan", problem};
  for (const std::string& s : sets) args.insert(args.end(), {"--set", s});
  args.insert(args.end(), {"--csv", csv, "--inputs", inputs});
  return runCaptured(args);
}

inline double maxAbs(const std::vector<double>& v) {
  double m = 0.0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

// max over the rows of `a` and the named columns of |a - b| (b has at least a's rows: the caller checks the count).
inline double maxColumnDifference(const CsvTable& a, const CsvTable& b, const std::vector<std::string>& columns) {
  double worst = 0.0;
  for (size_t k = 0; k < a.rows.size(); ++k)
    for (const std::string& c : columns) worst = std::max(worst, std::abs(a.at(k, c) - b.at(k, c)));
  return worst;
}

}  // namespace varsim::test
