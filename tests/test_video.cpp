// `varsim run --video/--frames` (ui/video/, media/): runs the binary headless with DISPLAY unset (EGL on
// Mesa's surfaceless platform), decodes what it wrote and checks frame count, size, codec, motion,
// determinism, the CSV's bytes and every refusal's exit code and message.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

#include "media/video_probe.h"

namespace {

struct Result {
  int code = -1;
  std::string err;
};

std::string outPath(const std::string& name) { return std::string(VARSIM_TEST_OUT) + "/video_" + name; }

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The binary with DISPLAY unset, stderr kept for the message checks.
Result run(const std::string& args) {
  const std::string errPath = outPath("stderr.txt");
  const int status =
      std::system(("env -u DISPLAY -u WAYLAND_DISPLAY " + std::string(VARSIM_BINARY) + " run " + args + " 2>" + errPath).c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(errPath)};
}

varsim::media::VideoProbe probe(const std::string& path) {
  varsim::media::VideoProbe p;
  std::string error;
  REQUIRE_MESSAGE(varsim::media::probeVideo(path, p, error), error);
  return p;
}

const std::string kLadder = "ladder --set links=20 --duration 3 ";

}  // namespace

TEST_CASE("video: the ladder N=20, 3 s at 30 fps, headless without DISPLAY: 91 H.264 frames that move") {
  const std::string mp4 = outPath("ladder.mp4"), withCsv = outPath("with.csv"), without = outPath("without.csv");
  const Result r = run(kLadder + "--fps 30 --size 320x180 --video " + mp4 + " --csv " + withCsv);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const auto p = probe(mp4);
  CHECK(p.codec == "h264");
  CHECK(p.width == 320);
  CHECK(p.height == 180);
  CHECK(p.fps == doctest::Approx(30));
  CHECK(p.frameHashes.size() == 91);  // duration x fps + 1: frames at t = 0 and t = 3 s
  // The ladder falls and whips: nearly every frame differs from the one before.
  const std::set<std::uint64_t> distinct(p.frameHashes.begin(), p.frameHashes.end());
  CHECK(distinct.size() >= p.frameHashes.size() - 5);
  // The CSV is the same bytes with and without video.
  REQUIRE(run(kLadder + "--csv " + without).code == 0);
  CHECK(slurp(withCsv) == slurp(without));
  // A second run of the same command decodes to the same frames.
  const std::string again = outPath("ladder_again.mp4");
  REQUIRE(run(kLadder + "--fps 30 --size 320x180 --video " + again).code == 0);
  CHECK(probe(again).frameHashes == p.frameHashes);
}

TEST_CASE("video: .webm is VP9, .gif is GIF, --frames writes numbered PNGs that differ while the ladder falls") {
  const std::string webm = outPath("short.webm"), gif = outPath("short.gif"), dir = outPath("frames");
  REQUIRE(run("ladder --set links=5 --duration 0.5 --fps 10 --size 160x96 --video " + webm).code == 0);
  CHECK(probe(webm).codec == "vp9");
  CHECK(probe(webm).frameHashes.size() == 6);
  REQUIRE(run("ladder --set links=5 --duration 0.5 --fps 10 --size 160x96 --video " + gif).code == 0);
  CHECK(probe(gif).codec == "gif");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  REQUIRE(run("ladder --set links=5 --duration 0.2 --fps 10 --size 160x96 --frames " + dir).code == 0);
  CHECK(std::filesystem::file_size(dir + "/frame_000000.png") > 100);
  CHECK(std::filesystem::exists(dir + "/frame_000002.png"));
  CHECK_FALSE(std::filesystem::exists(dir + "/frame_000003.png"));
  CHECK(slurp(dir + "/frame_000000.png") != slurp(dir + "/frame_000002.png"));
}

TEST_CASE("video: bad input exits 2 with the reason, never a crash") {
  const std::string base = "ladder --set links=5 --duration 0.2 ";
  auto refused = [&](const std::string& args, const std::string& reason) {
    const Result r = run(base + args);
    CHECK_MESSAGE(r.code == 2, args);
    CHECK_MESSAGE(r.err.find(reason) != std::string::npos, (args + " -> " + r.err));
  };
  refused("--video " + outPath("x.avi"), "unknown video extension");
  refused("--video " + outPath("x.mp4") + " --fps 0", "--fps 0");
  refused("--video " + outPath("x.mp4") + " --size 0x0", "--size 0x0");
  refused("--video " + outPath("x.mp4") + " --size 100000x100000", "--size 100000x100000");
  refused("--video /nonexistent_dir/x.mp4", "/nonexistent_dir/x.mp4");
  const std::string full = outPath("full.mp4");  // a disk that is always full: writes fail with ENOSPC
  std::filesystem::remove(full);
  std::filesystem::create_symlink("/dev/full", full);
  refused("--video " + full, full);
  refused("--fps 30", "need exactly one of --video");
  refused("--video " + outPath("x.mp4") + " --camera zoom=3", "unknown camera key");
  refused("--frames /nonexistent_dir", "not a directory");
  refused("--video " + outPath("x.mp4") + " --hud maybe", "--hud maybe: allowed on or off");
}

// The rendered frames, lossless (H.264's P-frames refine a still picture, so decoded MP4 frames of a still
// scene differ in their low bits): the PNGs' bytes as they were written.
static std::vector<std::string> pngFrames(const std::string& args, const std::string& name) {
  const std::string dir = outPath(name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const Result r = run(args + " --frames " + dir);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  std::vector<std::string> frames;
  for (int n = 0;; ++n) {
    char file[32];
    std::snprintf(file, sizeof file, "/frame_%06d.png", n);
    if (!std::filesystem::exists(dir + file)) break;
    frames.push_back(slurp(dir + file));
  }
  return frames;
}

TEST_CASE("video: a car at speed 0 gives equal frames with --hud off; the HUD's clock makes them differ") {
  const std::string still = "car --set speed=0 --duration 0.5 --fps 10 --size 160x96";
  const auto off = pngFrames(still + " --hud off", "still_off");
  REQUIRE(off.size() == 6);
  CHECK(std::set<std::string>(off.begin(), off.end()).size() == 1);
  const auto on = pngFrames(still, "still_on");  // --hud on is the default
  REQUIRE(on.size() == 6);
  CHECK(on[0] != off[0]);  // the HUD box and text are in the frame
  CHECK(std::set<std::string>(on.begin(), on.end()).size() == 6);  // t = 0.000, 0.100, ... s
  // A moving car with the HUD off: every frame differs.
  const auto moving = pngFrames("car --set speed=4 --duration 0.5 --fps 10 --size 160x96 --hud off", "moving_off");
  REQUIRE(moving.size() == 6);
  CHECK(std::set<std::string>(moving.begin(), moving.end()).size() == 6);
}

TEST_CASE("video: the app's recording of an input replay is the headless command's file, byte for byte") {
  if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0) {
    MESSAGE("skipped: no xvfb-run to open the app's window");
    return;
  }
  const std::string input = std::string(VARSIM_TEST_DATA) + "/../../assets/inputs/marionette_walk.csv";
  const std::string app = outPath("app_replay.mp4"), headless = outPath("headless_replay.mp4");
  const std::string errPath = outPath("app_stderr.txt");
  const std::string xvfb = "xvfb-run -a -s \"-screen 0 1280x720x24\" " + std::string(VARSIM_BINARY);
  // The smoke test runs one step per frame (1/60 s each): 20 frames are steps 1..20, recorded from step 0.
  const int code = std::system((xvfb + " --smoke-test marionette --replay " + input + " --frames 20 --screenshot " +
                                outPath("app_replay.png") + " --video " + app + " 2>" + errPath).c_str());
  const bool ok = WIFEXITED(code) && WEXITSTATUS(code) == 0;
  REQUIRE_MESSAGE(ok, slurp(errPath));
  CHECK(slurp(errPath).find("video: 21 frames, 0.35 s at 60 fps") != std::string::npos);
  REQUIRE(run("marionette --input " + input + " --steps 20 --video " + headless).code == 0);
  CHECK(probe(app).frameHashes.size() == 21);
  CHECK(slurp(app) == slurp(headless));
  // A path the app cannot write is refused at the start, naming it (exit 2; xvfb-run may replace the code
  // when its own clean-up fails, so only a failure is checked).
  const int bad = std::system((xvfb + " --smoke-test marionette --frames 1 --screenshot " + outPath("app_bad.png") +
                               " --video /nonexistent_dir/x.mp4 2>" + errPath).c_str());
  CHECK(bad != 0);
  CHECK(slurp(errPath).find("video '/nonexistent_dir/x.mp4': cannot open for writing") != std::string::npos);
}
