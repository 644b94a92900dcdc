// libFuzzer target for URDF text: urdf_import::parseUrdf (the XML limits pre-scan, the outline, urdfdom and
// the tree build) on arbitrary bytes; for models it accepts, the mass matrix check has already run. BadInput is
// the contract (exit 2); anything else that escapes, and every ASan/UBSan report, is a crash. Meshes resolve
// under a directory that does not exist, so the target never reads files. See README "Fuzzing".
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/sim/errors.h"
#include "import/urdf_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    varsim::urdf_import::parseUrdf(text, "fuzz.urdf", "/nonexistent-fuzz-dir");
  } catch (const varsim::BadInput&) {
  }
  return 0;
}
