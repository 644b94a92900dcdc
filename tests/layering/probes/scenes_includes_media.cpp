// Layering probe (tests/CMakeLists.txt, layering_compile_probes): scenes fill a draw list, never a video; must fail to compile.
#include "media/video_encoder.h"

int layering_probe_scenes_includes_media() { return 0; }
