// Planted layering violations (never compiled): scripts/check_layering.sh must report exactly the lines
// marked "violation" in this tree (ctest layering_grep_finds_violations expects 20 in all).
#include "render/renderer.h"  // violation: ui/core is headless
#include "scenes/scene.h"  // allowed
