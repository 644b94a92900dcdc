// The one rule for reading a file the user names (scene, plan, input CSV, URDF, mesh): a regular file only
// (a FIFO would block, a device like /dev/zero never ends, a directory is no text), at most `maxBytes`, every
// refusal a BadInput naming the path, what the file was for, and the limit, raised before any byte is read.
#pragma once
#include <cstddef>
#include <string>

namespace varsim {

// Size caps, each far above what the file needs (the largest shipped file of each kind is under 1 MB) and
// low enough that a refused or accepted file costs bounded memory.
constexpr size_t kMaxJsonFileBytes = size_t(4) << 20;    // scene and plan files
constexpr size_t kMaxInputFileBytes = size_t(64) << 20;  // --input CSV tracks
constexpr size_t kMaxUrdfFileBytes = size_t(16) << 20;
constexpr size_t kMaxMeshFileBytes = size_t(64) << 20;

// `what` names the role in the message ("scene file", "input file"...). Throws BadInput
// "<path>: <what> <reason>" when the path is missing, not a regular file, larger than maxBytes, or unreadable.
std::string readUserFile(const std::string& path, const std::string& what, size_t maxBytes);

// Throws BadInput "<source>:<line>:<col>: a NUL byte ..." when `text` holds a NUL (text formats never do, and
// a C-string reader would silently stop there).
void refuseNulBytes(const std::string& text, const std::string& source);

}  // namespace varsim
