// Layering probe (tests/CMakeLists.txt, layering_compile_probes): render/ knows no scenes; must fail to compile.
#include "scenes/scene.h"

int layering_probe_render_includes_scenes() { return 0; }
