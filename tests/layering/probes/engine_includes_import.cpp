// Layering probe (tests/CMakeLists.txt, layering_compile_probes): the engine knows no import layer; must fail to compile.
#include "import/urdf_import.h"

int layering_probe_engine_includes_import() { return 0; }
