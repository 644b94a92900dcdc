// Layering probe (tests/CMakeLists.txt, layering_compile_probes): a scene must not see the study layer (the study
// sits above scenes); must fail to compile.
#include "study/study_runner.h"

int layering_probe_scenes_includes_study() { return 0; }
