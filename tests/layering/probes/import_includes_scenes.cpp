// Layering probe (tests/CMakeLists.txt, layering_compile_probes): import/ is below scenes; must fail to compile.
#include "scenes/scene.h"

int layering_probe_import_includes_scenes() { return 0; }
