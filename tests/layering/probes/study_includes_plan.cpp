// Layering probe (tests/CMakeLists.txt, layering_compile_probes): the study must not see the planner; must fail
// to compile.
#include "plan/plan_problem.h"

int layering_probe_study_includes_plan() { return 0; }
