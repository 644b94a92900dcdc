// varsim entry point: headless commands (list/describe/run) never touch a display; anything else
// starts the desktop app when it was built.
#include <cstdio>
#include <string>
#include <vector>

#include "ui/headless_runner.h"
#ifdef VARSIM_HAS_APP
#include "ui/app/app.h"
#endif
#ifdef VARSIM_HAS_VIDEO
#include "ui/run_frames.h"
#include "ui/video/video_sink.h"
#endif

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
#ifdef VARSIM_HAS_VIDEO
  varsim::setFrameSinkFactory(varsim::video::makeVideoSink);  // `varsim run --video` (ui/run_frames.h)
#endif
  if (!args.empty() && varsim::isHeadlessCommand(args[0])) return varsim::runHeadless(args);
#ifdef VARSIM_HAS_APP
  return varsim::runApp(args);
#else
  std::fprintf(stderr, "varsim: built without the app (VARSIM_BUILD_APP=OFF); use 'varsim list|describe|run'\n");
  return args.empty() ? 1 : 2;
#endif
}
