// Layering probe (tests/CMakeLists.txt, layering_compile_probes): media/ knows frames, not physics; must fail to compile.
#include "engine/sim/system.h"

int layering_probe_media_includes_engine() { return 0; }
