// libFuzzer target for plan problem files: loadPlanProblem (plan/plan_problem.h) on arbitrary bytes written to
// a scratch file, i.e. the file rule, the strict JSON reader, the plan keys and the scene's own checks. No
// solve runs (that is Ipopt's time, not the reader's). BadInput is the contract; anything else is a crash.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "engine/sim/errors.h"
#include "plan/plan_problem.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/varsim_fuzz_plan_" + std::to_string(getpid()) + ".json";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  try {
    varsim::loadPlanProblem(path, {});
  } catch (const varsim::BadInput&) {
  }
  return 0;
}
