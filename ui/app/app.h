// The desktop app entry point (GLFW window, OpenGL 3.3 core, Dear ImGui panels) called by ui/main.cpp
// for every command line that is not a headless command (list/describe/run).
#pragma once
#include <string>
#include <vector>

namespace varsim {

// Returns the process exit code: 0 ok, 1 no display / window or GL failure, 2 bad command line or
// scene/parameter/input file.
int runApp(const std::vector<std::string>& args);

}  // namespace varsim
