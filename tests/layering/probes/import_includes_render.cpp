// Layering probe (tests/CMakeLists.txt, layering_compile_probes): import/ knows no drawing; must fail to compile.
#include "render/draw_list.h"

int layering_probe_import_includes_render() { return 0; }
