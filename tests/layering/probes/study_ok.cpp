// Layering probe (tests/CMakeLists.txt, layering_compile_probes): the study may include the engine, scenes and
// study/; must compile.
#include "engine/sim/system.h"
#include "scenes/scene.h"
#include "study/study_runner.h"

int layering_probe_study_ok() { return 0; }
