// Layering probe (tests/CMakeLists.txt, layering_compile_probes): media/ knows frames, not scenes; must fail to compile.
#include "scenes/scene.h"

int layering_probe_media_includes_scenes() { return 0; }
