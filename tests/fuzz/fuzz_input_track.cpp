// libFuzzer target for input tracks (engine/sim/input_track.h): every input is parsed by
// InputTrack::parse against the control list of every scene that has controls (h = 1/60 s), so a seed
// such as assets/inputs/helicopter_pad_landing.csv is a valid track for one of them. BadInput is the
// contract (exit 2); anything else that escapes, and every ASan/UBSan report, is a crash.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/sim/errors.h"
#include "engine/sim/input_track.h"
#include "scenes/scene.h"

namespace {

std::vector<std::vector<varsim::ControlSpec>> controlSets() {
  std::vector<std::vector<varsim::ControlSpec>> out;
  for (const auto& info : varsim::SceneRegistry::all()) {
    auto controls = varsim::SceneRegistry::create(info.name, varsim::SceneRegistry::defaults(info.name))->controls();
    if (!controls.empty()) out.push_back(controls);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto sets = controlSets();
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const auto& controls : sets) {
    try {
      const varsim::InputTrack track = varsim::InputTrack::parse(text, "fuzz.csv", controls, 1.0 / 60.0);
      for (long k : {0L, 1L, track.lastStep(), track.lastStep() + 1}) track.at(k);
      for (long k : {0L, track.lastStep()}) track.eventsAt(k);
    } catch (const varsim::BadInput&) {
    }
  }
  return 0;
}
