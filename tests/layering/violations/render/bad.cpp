// Planted layering violations (never compiled): scripts/check_layering.sh must report exactly the lines
// marked "violation" in this tree (ctest layering_grep_finds_violations expects 20 in all).
#include "engine/sim/system.h"  // violation: render knows no physics
#include <glad/gl.h>  // allowed
#include "import/urdf_import.h"  // violation: render knows no models
