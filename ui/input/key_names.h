// Keyboard key codes for the input layer without a GLFW dependency: the numbering is GLFW's
// (printable keys are their ASCII upper-case code), checked against GLFW by static_asserts in
// ui/app/keyboard.cpp. Names are what settings files and the mapping panel show.
#pragma once
#include <string>

namespace varsim {

namespace key {
constexpr int kNone = -1;
constexpr int kSpace = 32;
constexpr int kA = 65, kD = 68, kE = 69, kF = 70, kG = 71, kH = 72, kI = 73, kJ = 74, kK = 75, kL = 76;
constexpr int kO = 79, kQ = 81, kS = 83, kT = 84, kU = 85, kW = 87, kY = 89;
constexpr int kRight = 262, kLeft = 263, kDown = 264, kUp = 265;
constexpr int kPageUp = 266, kPageDown = 267, kHome = 268, kEnd = 269;
constexpr int kMaxCode = 348;  // GLFW_KEY_LAST
}  // namespace key

std::string keyName(int code);      // "W", "Up", "" for kNone
int keyFromName(const std::string& name);  // kNone if unknown (case-insensitive)

}  // namespace varsim
