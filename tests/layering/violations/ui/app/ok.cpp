// Planted layering violations (never compiled): scripts/check_layering.sh must report exactly the lines
// marked "violation" in this tree (ctest layering_grep_finds_violations expects 20 in all).
#include <imgui.h>  // allowed: the app draws
#include "render/renderer.h"  // allowed
