// Layering probe (tests/CMakeLists.txt, layering_compile_probes): an engine source may include the engine; must compile.
#include "engine/sim/system.h"

int layering_probe_engine_ok() { return 0; }
