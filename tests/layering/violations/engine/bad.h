// Planted layering violations (never compiled): scripts/check_layering.sh must report exactly the lines
// marked "violation" in this tree (ctest layering_grep_finds_violations expects 20 in all).
#include <GLFW/glfw3.h>         // violation: GL in the engine
#include "render/draw_list.h"   // violation: the engine draws nothing
#include "ui/core/sim_driver.h"  // violation
#include "engine/sim/system.h"  // allowed
#include <Eigen/Core>  // allowed
#include <urdf_parser/urdf_parser.h>  // violation: parsers live behind import/
#include "import/urdf_import.h"  // violation: the engine knows no import layer
