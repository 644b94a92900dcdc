// Layering probe (tests/CMakeLists.txt, layering_compile_probes): the engine encodes no video; must fail to compile.
#include "media/video_encoder.h"

int layering_probe_engine_includes_media() { return 0; }
