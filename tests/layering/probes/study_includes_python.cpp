// Layering probe (tests/CMakeLists.txt, layering_compile_probes): study/ must not see the Python bindings (python/
// sits on top and nothing includes it); must fail to compile.
#include "python/py_scene.h"

int layering_probe_study_includes_python() { return 0; }
