// Planted layering violations (tests/CMakeLists.txt, layering_grep_finds_violations): the study sees neither
// the planner nor the UI.
#include "plan/plan_problem.h"  // violation
#include "ui/core/sim_driver.h"  // violation
#include "python/py_scene.h"  // violation
