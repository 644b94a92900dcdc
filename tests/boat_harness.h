// tests/boat_harness.h — what the boat scene's tests (test_boat*.cpp) share: the boat scene in still water without
// wind unless a test says otherwise, the last recorded row, and whether this is the ASan/UBSan pass (scripts/test.sh
// sets VARSIM_SANITIZED there: the long runs shorten). Header-only, test use.
#pragma once

#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/sim/recorder.h"
#include "scenes/scene.h"
#include "tests/scene_harness.h"

namespace varsim::test {

using Sets = std::vector<std::pair<std::string, std::string>>;

// Still water and no wind unless a test says otherwise; coarse patches keep the suite fast (the volume is
// exact for any patch size).
inline std::unique_ptr<Scene> makeBoat(const Sets& sets) {
  Sets all{{"wave_amplitude", "0"}, {"wind", "0,0,0"}, {"patch_size", "0.5"}};
  all.insert(all.end(), sets.begin(), sets.end());  // later settings win
  return makeScene("boat", all);
}

inline size_t last(const Recorder& r) { return r.rows().size() - 1; }

inline bool sanitized() { return std::getenv("VARSIM_SANITIZED") != nullptr; }

}  // namespace varsim::test
