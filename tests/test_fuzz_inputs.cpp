// Deterministic mutation test of everything `varsim run` reads (issue 15, "fuzzing as a habit"):
// scene files mutated from every preset, --set values at and beyond every registered parameter's
// bounds, and mutated input tracks, all through runHeadless in-process. Every exit code must be in
// {0, 2, 3}; inputs of a known-bad class (numbers beyond a double, nesting past the bound, repeated
// keys, truncated JSON, out-of-range values) must be exit 2. Runs are 1-2 steps so the few thousand
// cases stay well under a minute under ASan/UBSan (VARSIM_SANITIZED=1 thins the --set sweep there).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "engine/sim/param.h"
#include "headless_capture.h"
#include "scenes/scene.h"
#include "ui/headless_runner.h"

using namespace varsim;
using varsim::test::readFile;
using varsim::test::runCaptured;
using varsim::test::testOut;
using varsim::test::writeFile;

namespace {

// splitmix64: the same sequence on every platform and standard library (std distributions are not).
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return n ? size_t(next() % n) : 0; }
};

enum class Expect { Any, Bad };  // Any: 0, 2 or 3; Bad: exit 2

struct Tally {
  std::map<int, int> byCode;
  int cases = 0;
};

void check(Tally& tally, const std::vector<std::string>& args, Expect expect, const std::string& what) {
  const auto r = runCaptured(args);
  ++tally.cases;
  ++tally.byCode[r.exitCode];
  INFO(what << " -> exit " << r.exitCode << ": " << r.err.substr(0, 300));
  CHECK((r.exitCode == kExitOk || r.exitCode == kExitBadInput || r.exitCode == kExitDiverged));
  if (expect == Expect::Bad) CHECK(r.exitCode == kExitBadInput);
  CHECK(r.err.size() < 2000);  // messages never echo whole values
  // The runner's last catch (any std::exception) is a safety net, not a way to refuse input.
  CHECK(r.err.find("unexpected failure") == std::string::npos);
}

std::string fuzzDir() {
  const std::string dir = testOut("fuzz");
  std::filesystem::create_directories(dir);
  return dir;
}

std::vector<std::string> presets() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(VARSIM_ASSET_DIR) + "/scenes"))
    if (e.path().extension() == ".json") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Byte positions of number tokens and of values after "key": in a JSON text (good enough on presets).
std::vector<size_t> valueStarts(const std::string& t) {
  std::vector<size_t> out;
  for (size_t i = 0; i + 1 < t.size(); ++i)
    if (t[i] == ':') {
      size_t j = i + 1;
      while (j < t.size() && t[j] == ' ') ++j;
      out.push_back(j);
    }
  return out;
}

size_t valueEnd(const std::string& t, size_t start) {
  int depth = 0;
  bool inString = false;
  for (size_t i = start; i < t.size(); ++i) {
    const char c = t[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"')
      inString = true;
    else if (c == '[' || c == '{')
      ++depth;
    else if (c == ']' || c == '}') {
      if (depth == 0) return i;
      --depth;
    } else if (c == ',' && depth == 0)
      return i;
  }
  return t.size();
}

std::string replaceValue(const std::string& t, size_t start, const std::string& with) {
  return t.substr(0, start) + with + t.substr(valueEnd(t, start));
}

}  // namespace

TEST_CASE("FuzzSceneFilesFromEveryPreset") {
  Rng rng{15};
  Tally tally;
  const std::string dir = fuzzDir();
  const std::vector<std::string> huge = {"1e400", "-1e400", "1e309", "-2e308", "123456789012345678901234567890e300"};
  const std::vector<std::string> odd = {
      "1e308",  "-1e308",  "1e-320", "-0", "0", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
      "1e-400", "4.9e-324"};
  const std::vector<std::string> wrongTypes = {"\"text\"", "true", "null", "{}", "[]", "[1,2]", "{\"a\":1}", "\"\""};
  for (const std::string& preset : presets()) {
    const std::string text = readFile(preset);
    const auto values = valueStarts(text);
    REQUIRE(values.size() >= 3);
    const std::string file = dir + "/mutant.json";
    auto run = [&](const std::string& mutant, Expect e, const std::string& what) {
      writeFile(file, mutant);
      check(tally, {"run", file, "--steps", "1"}, e, preset + ": " + what);
    };
    run(text, Expect::Any, "as shipped");
    for (int k = 0; k < 40; ++k) {  // byte flips
      std::string m = text;
      m[rng.below(m.size())] ^= char(1u << rng.below(8));
      run(m, Expect::Any, "byte flip");
    }
    for (int k = 0; k < 20; ++k) {  // random bytes incl. NUL and non-UTF-8
      std::string m = text;
      m[rng.below(m.size())] = char(rng.below(256));
      run(m, Expect::Any, "random byte");
    }
    for (int k = 0; k < 15; ++k) {  // truncation: any proper prefix of an object is malformed
      const size_t keep = rng.below(text.rfind('}'));
      run(text.substr(0, keep), Expect::Bad, "truncated to " + std::to_string(keep));
    }
    for (int k = 0; k < 10; ++k) {  // duplicated slice
      const size_t a = rng.below(text.size()), n = rng.below(text.size() - a);
      run(text.substr(0, a + n) + text.substr(a), Expect::Any, "duplicated slice");
    }
    run("{\"scene\":\"car\"," + text.substr(text.find('{') + 1), Expect::Bad, "repeated scene key");
    const size_t params = text.find("\"params\"");
    if (params != std::string::npos) {
      const size_t open = text.find('{', params);
      const size_t firstKeyEnd = text.find(',', open);
      run(text.substr(0, firstKeyEnd + 1) + text.substr(open + 1, firstKeyEnd - open) + text.substr(firstKeyEnd + 1),
          Expect::Bad, "repeated first parameter");
    }
    for (size_t v : values) {
      for (const auto& h : huge) run(replaceValue(text, v, h), Expect::Bad, "huge " + h);
      run(replaceValue(text, v, odd[rng.below(odd.size())]), Expect::Any, "odd number");
      run(replaceValue(text, v, wrongTypes[rng.below(wrongTypes.size())]), Expect::Any, "wrong type");
      const size_t depth = std::vector<size_t>{65, 1000, 10000, 80000}[rng.below(4)];
      run(replaceValue(text, v, std::string(depth, '[') + std::string(depth, ']')), Expect::Bad,
          "nested " + std::to_string(depth));
    }
  }
  MESSAGE("scene-file cases: " << tally.cases << " (exit 0: " << tally.byCode[0] << ", 2: " << tally.byCode[2]
                               << ", 3: " << tally.byCode[3] << ")");
}

namespace {

// Values for one numeric bound: at it, one ulp inside and outside, and far outside.
std::vector<std::pair<double, bool>> boundProbes(const ParamSpec& s) {
  std::vector<std::pair<double, bool>> out;  // value, allowed
  out.push_back({s.minValue, !s.minExclusive});
  out.push_back({std::nextafter(s.minValue, HUGE_VAL), true});
  out.push_back({std::nextafter(s.minValue, -HUGE_VAL), false});
  out.push_back({s.maxValue, true});
  out.push_back({std::nextafter(s.maxValue, -HUGE_VAL), true});
  out.push_back({std::nextafter(s.maxValue, HUGE_VAL), false});
  out.push_back({-1e300, s.minValue <= -1e300});
  out.push_back({1e300, s.maxValue >= 1e300});
  return out;
}

std::string repeatList(const std::string& item, int n) {
  std::string t;
  for (int i = 0; i < n; ++i) t += (i ? "," : "") + item;
  return t;
}

// ",0" n times: the control cells of a track row after its step.
std::string zeroCells(int n) {
  std::string t;
  for (int i = 0; i < n; ++i) t += ",0";
  return t;
}

}  // namespace

TEST_CASE("FuzzSetValuesAtAndBeyondEveryParameterBound") {
  Tally tally;
  const bool sanitized = std::getenv("VARSIM_SANITIZED") != nullptr;
  for (const auto& info : SceneRegistry::all()) {
    for (const ParamSpec& s : info.params()) {
      auto run = [&](const std::string& value, Expect e) {
        check(tally, {"run", info.name, "--steps", "1", "--set", s.key + "=" + value}, e,
              info.name + " --set " + s.key + "=" + value.substr(0, 80));
      };
      if (s.type == ParamType::Choice) {
        for (const auto& c : s.choices) run(c, Expect::Any);
        run("no_such_choice", Expect::Bad);
        run("", Expect::Bad);
        continue;
      }
      if (s.type == ParamType::Path) {  // a file: the default loads, a missing or empty path is refused
        run(s.defaultChoice, Expect::Any);
        run("no/such/file.xyz", Expect::Bad);
        run("", Expect::Bad);
        continue;
      }
      if (s.type == ParamType::Bool) {
        for (const char* v : {"true", "false", "2", "yes", ""})
          run(v, std::string(v) == "true" || std::string(v) == "false" ? Expect::Any : Expect::Bad);
        continue;
      }
      const bool integer = s.type == ParamType::Integer;
      const int n = s.type == ParamType::Vector ? s.size : 1;
      for (const auto& [v, allowed] : boundProbes(s)) {
        if (sanitized && allowed && v != s.minValue && v != s.maxValue) continue;  // the ulp-inside probes
        const bool whole = v == std::floor(v);
        const std::string text = formatNumber(v);
        // Vectors: the probe in one component, the defaults elsewhere (cross checks may still refuse).
        std::string value = text;
        if (n > 1) {
          value.clear();
          for (int i = 0; i < n; ++i) value += (i ? "," : "") + (i == n - 1 ? text : formatNumber(s.defaultNumbers[i]));
        }
        run(value, allowed && (!integer || whole) ? Expect::Any : Expect::Bad);
      }
      for (const char* bad : {"nan", "inf", "-inf", "0x10", "1e400", "", " 1", "1,", "1e", "--1", "1..2"})
        run(n > 1 ? repeatList("1", n - 1) + "," + bad : bad,
            s.size == 0 && !*bad ? Expect::Any : Expect::Bad);  // "" is the empty list of a list parameter
      run(repeatList("1", n + 1), Expect::Bad);
      if (n > 1) run(repeatList("1", n) + ",", Expect::Bad);
    }
  }
  MESSAGE("--set cases: " << tally.cases << " (exit 0: " << tally.byCode[0] << ", 2: " << tally.byCode[2]
                          << ", 3: " << tally.byCode[3] << ")");
}

TEST_CASE("FuzzInputTracksForEveryControlledScene") {
  Rng rng{1515};
  Tally tally;
  const std::string file = fuzzDir() + "/track.csv";
  for (const auto& info : SceneRegistry::all()) {
    const auto controls = SceneRegistry::create(info.name, SceneRegistry::defaults(info.name))->controls();
    if (controls.empty()) continue;
    std::string header = "step";
    for (const auto& c : controls) header += "," + c.name;
    std::string track = header + "\n";
    for (int k = 0; k < 4; ++k) {
      track += std::to_string(k);
      for (const auto& c : controls) track += "," + formatNumber(c.min + (c.max - c.min) * 0.25 * k);
      track += "\n";
    }
    auto run = [&](const std::string& t, Expect e, const std::string& what) {
      writeFile(file, t);
      check(tally, {"run", info.name, "--steps", "2", "--input", file}, e, info.name + " input: " + what);
    };
    run(track, Expect::Any, "as written");
    for (int k = 0; k < 40; ++k) {
      std::string m = track;
      m[rng.below(m.size())] ^= char(1u << rng.below(8));
      run(m, Expect::Any, "byte flip");
    }
    for (int k = 0; k < 10; ++k) run(track.substr(0, rng.below(track.size())), Expect::Any, "truncated");
    run("", Expect::Bad, "empty file");
    run("time," + header.substr(5) + "\n", Expect::Bad, "unknown first column");
    run(header + ",no_such_control\n0" + zeroCells(int(controls.size()) + 1) + "\n", Expect::Bad, "unknown control");
    run(header + "\n0,abc" + zeroCells(int(controls.size()) - 1) + "\n", Expect::Bad, "not a number");
    run(header + "\n0,0x10" + zeroCells(int(controls.size()) - 1) + "\n", Expect::Bad, "hex");
    run(header + "\n0,1e400" + zeroCells(int(controls.size()) - 1) + "\n", Expect::Bad, "overflow");
    run(header + "\n-1" + zeroCells(int(controls.size())) + "\n", Expect::Bad, "negative step");
    run(header + "\n1.5" + zeroCells(int(controls.size())) + "\n", Expect::Bad, "fractional step");
    run(header + "\n5" + zeroCells(int(controls.size())) + "\n1" + zeroCells(int(controls.size())) + "\n", Expect::Bad,
        "decreasing steps");
    run(header + "\n0" + zeroCells(int(controls.size()) + 3) + "\n", Expect::Bad, "too many cells");
    run(header + "\n0\n", Expect::Any, "too few cells");
    const std::string zeros = zeroCells(int(controls.size()));
    for (const char* step : {"1e300", "9223372036854775808", "1e10", "-0.5", "nan"})
      run(header + "\n" + step + zeros + "\n", Expect::Bad, std::string("step ") + step);
    run(header + "," + controls[0].name + "\n0" + zeros + ",0\n", Expect::Bad, "repeated column");
    run(header + "\n0" + zeros + "\n" + std::string("5\0junk", 6) + zeros + "\n", Expect::Bad, "NUL byte");
    // Timed events: every parameter at its default (fine), beyond a double (bad), unknown keys (bad).
    for (const ParamSpec& s : info.params()) {
      const std::string value = SceneRegistry::defaults(info.name).valueText(s.key);
      run(header + "\n0" + zeros + "\nevent,1," + "param," + s.key + "," + value + "\n", Expect::Any,
          "event param " + s.key);
      if (s.type != ParamType::Choice && s.type != ParamType::Bool)
        run(header + "\n0" + zeros + "\nevent,1,param," + s.key + ",1e400\n", Expect::Bad, "event 1e400 " + s.key);
    }
    run(header + "\nevent,0,param,no_such_key,1\n", Expect::Bad, "event unknown key");
    run(header + "\nevent,0,param\n", Expect::Bad, "event without key");
    run(header + "\nevent,0,bogus,a,b\n", Expect::Bad, "unknown event kind");
    run(header + "\nevent,0,edit,relax.1,1e-6,0.05\n", Expect::Any, "scene edit");
    run(header + "\nevent,0,reset\n", Expect::Bad, "reset (app only)");
    run(header + "\nevent,5,param,dt,0.01\nevent,1,param,dt,0.01\n", Expect::Bad, "events going back");
  }
  MESSAGE("input-track cases: " << tally.cases << " (exit 0: " << tally.byCode[0] << ", 2: " << tally.byCode[2]
                                << ", 3: " << tally.byCode[3] << ")");
}
