// Layering probe (tests/CMakeLists.txt, layering_compile_probes): media/ gets RGB frames, not the renderer; must fail to compile.
#include "render/renderer.h"

int layering_probe_media_includes_render() { return 0; }
