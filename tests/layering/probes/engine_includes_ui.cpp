// Layering probe (tests/CMakeLists.txt, layering_compile_probes): an engine source must not see ui/; must fail to compile.
#include "ui/core/sim_driver.h"

int layering_probe_engine_includes_ui() { return 0; }
