// Layering probe (tests/CMakeLists.txt, layering_compile_probes): a scene may include the engine, scenes,
// render/draw_list.h and the import layer; must compile.
#include "engine/sim/system.h"
#include "import/urdf_import.h"
#include "render/draw_list.h"
#include "scenes/scene.h"

int layering_probe_scenes_ok() { return 0; }
