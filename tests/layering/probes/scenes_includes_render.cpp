// Layering probe (tests/CMakeLists.txt, layering_compile_probes): a scene may include render/draw_list.h only; must fail to compile.
#include "render/camera.h"

int layering_probe_scenes_includes_render() { return 0; }
