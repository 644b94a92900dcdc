// Layering probe (tests/CMakeLists.txt, layering_compile_probes): an engine source must not see scenes/; must fail to compile.
#include "scenes/scene.h"

int layering_probe_engine_includes_scenes() { return 0; }
