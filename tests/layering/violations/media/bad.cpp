// Planted layering violations (never compiled): scripts/check_layering.sh must report exactly the lines
// marked "violation" in this tree (ctest layering_grep_finds_violations expects 20 in all).
#include "media/video_encoder.h"  // allowed
#include "scenes/scene.h"  // violation: media/ knows frames, not scenes
#include "engine/sim/system.h"  // violation: nor physics
