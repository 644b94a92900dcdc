// libFuzzer target for scene files: parseSceneJson (scenes/scene_file.h) on arbitrary bytes, then, for
// inputs it accepts, the scene is built and stepped twice, so values inside the allowed ranges reach
// the models too. BadInput and SimulationDiverged are the contract (exit 2, 3); anything else that
// escapes, and every ASan/UBSan report, is a crash. See README "Fuzzing" for how to run it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/sim/errors.h"
#include "scenes/scene.h"
#include "scenes/scene_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace varsim;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const SceneConfig config = parseSceneJson(text, "fuzz.json");
    auto scene = SceneRegistry::create(config.scene, config.params);
    std::vector<double> row;
    const InputVector neutral(scene->controls().size(), 0.0);
    for (int k = 0; k < 2; ++k) scene->step(scene->dt(), neutral);
    scene->diagnostics(row);
  } catch (const BadInput&) {
  } catch (const SimulationDiverged&) {
  }
  return 0;
}
