// Layering probe (tests/CMakeLists.txt, layering_compile_probes): scenes/ must not see the Python bindings (python/
// sits on top and nothing includes it); must fail to compile.
#include "python/py_scene.h"

int layering_probe_scenes_includes_python() { return 0; }
