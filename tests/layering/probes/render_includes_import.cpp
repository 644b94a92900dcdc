// Layering probe (tests/CMakeLists.txt, layering_compile_probes): render/ knows no models; must fail to compile.
#include "import/urdf_import.h"

int layering_probe_render_includes_import() { return 0; }
