// Layering probe (tests/CMakeLists.txt, layering_compile_probes): media/ may include media/; must compile.
#include "media/video_encoder.h"

int layering_probe_media_ok() { return 0; }
