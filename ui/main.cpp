// varsim entry point: a subcommand word (list, describe, run, plan, mpc, study, help) or a bare --help / -h goes
// to the headless runner, which never touches a display; the app's flags (or none) start the desktop app when it
// was built.
#include <cstdio>
#include <string>
#include <vector>

#include "ui/headless_runner.h"
#include "ui/headless_help.h"
#ifdef VARSIM_HAS_APP
#include "ui/app/app.h"
#include "ui/core/app_options.h"
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
#ifdef VARSIM_HAS_APP
  varsim::setAppUsage(varsim::appUsage());  // `varsim --help` ends with the app's flags
#endif
  if (!args.empty() && varsim::isHeadlessCommand(args[0])) return varsim::runHeadless(args);
#ifdef VARSIM_HAS_APP
  return varsim::runApp(args);
#else
  std::fprintf(stderr, "varsim: built without the app (VARSIM_BUILD_APP=OFF); see 'varsim --help'\n");
  return args.empty() ? 1 : 2;
#endif
}
