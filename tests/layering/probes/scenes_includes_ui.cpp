// Layering probe (tests/CMakeLists.txt, layering_compile_probes): a scene must not see ui/; must fail to compile.
#include "ui/core/sim_driver.h"

int layering_probe_scenes_includes_ui() { return 0; }
