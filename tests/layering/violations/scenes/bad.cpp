// Planted layering violations (never compiled): scripts/check_layering.sh must report exactly the lines
// marked "violation" in this tree (ctest layering_grep_finds_violations expects 20 in all).
#include "render/draw_list.h"  // allowed
#include "render/camera.h"  // violation
  #  include <imgui.h>  // violation
#include "engine/sim/system.h"  // allowed
#include <urdf_model/model.h>  // violation: a scene reaches the parser through import/ only
#include "import/urdf_import.h"  // allowed
#include "study/study_runner.h"  // violation: the study layer sits above scenes
#include "media/video_encoder.h"  // violation: scenes fill a draw list, never a video
