// Layering probe (tests/CMakeLists.txt, layering_compile_probes): an engine source must not see render/; must fail to compile.
#include "render/draw_list.h"

int layering_probe_engine_includes_render() { return 0; }
