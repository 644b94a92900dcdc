// Layering probe (tests/CMakeLists.txt, layering_compile_probes): the import layer may include the engine
// and import/; must compile.
#include "engine/tree/tree.h"
#include "import/urdf_import.h"

int layering_probe_import_ok() { return 0; }
