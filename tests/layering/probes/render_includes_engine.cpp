// Layering probe (tests/CMakeLists.txt, layering_compile_probes): render/ knows no physics; must fail to compile.
#include "engine/sim/system.h"

int layering_probe_render_includes_engine() { return 0; }
