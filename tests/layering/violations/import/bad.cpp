// Planted layering violations (never compiled): scripts/check_layering.sh must report exactly the lines
// marked "violation" in this tree (ctest layering_grep_finds_violations expects 20 in all).
#include <urdf_parser/urdf_parser.h>  // allowed
#include "engine/tree/tree.h"  // allowed
#include "scenes/scene.h"  // violation: import/ is below scenes
