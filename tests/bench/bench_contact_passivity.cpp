// Benchmark (prints tables; not a timed test): issue 15 item 10, the helicopter's ground and wall contact over
// the allowed mass and step ranges. Rotor off, resting on the pad or dropped from 2 m, 20 s: max (E - W)/E0
// (W = inputWork, 0 here), max and final penetration, exit status, for contact=implicit (end-of-step wrench,
// the default) beside contact=explicit (the old node-wrench penalty) in the same run. Then 15 m/s sideways into
// a canyon wall, with the inertia scaled with the mass and with the default inertia (extreme for 100 t).
// Usage: bench_contact_passivity [--quick]   (--quick: fewer masses and steps)
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tests/contact_passivity.h"

using namespace varsim;
using test::PassivityRun;

namespace {

using Sets = std::vector<std::pair<std::string, std::string>>;

std::string cell(const PassivityRun& r) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%10.6f %9.2e %9.2e %-8s", r.maxRatio, r.maxPenetration, r.finalPenetration,
                r.status.c_str());
  return buf;
}

void padTable(const std::vector<double>& masses, const std::vector<double>& steps) {
  std::printf("Rotor off on the 'start' pad, 20 s: max (E-W)/E0 | max penetration m | final penetration m | status\n");
  std::printf("%9s %9s %5s | %-39s | %-39s\n", "mass kg", "h s", "case", "implicit (default)", "explicit (old)");
  for (double m : masses)
    for (double h : steps)
      for (const char* start : {"0,0,1.1", "0,0,3.1"}) {
        std::string row;
        for (const char* contact : {"implicit", "explicit"}) {
          const Sets sets = {{"assist", "false"},       {"collective", "0"},       {"mass", std::to_string(m)},
                             {"dt", std::to_string(h)}, {"start_position", start}, {"contact", contact}};
          row += " | " + cell(test::runPassivity("helicopter", sets, 20.0));
        }
        std::printf("%9g %9.4g %5s%s\n", m, h, std::strcmp(start, "0,0,1.1") == 0 ? "rest" : "drop", row.c_str());
        std::fflush(stdout);
      }
}

void wallTable(const std::vector<double>& masses, const std::vector<double>& steps) {
  std::printf("\n15 m/s sideways into the canyon wall (no gravity, drag, thrust), 4 s, contact=implicit:\n");
  std::printf("%9s %9s %-8s %-14s | %-39s\n", "mass kg", "h s", "heading", "inertia",
              "max E/E0, max/final penetration");
  for (double m : masses)
    for (double h : steps)
      for (const char* heading : {"0", "1.5707963267948966"})
        for (bool scaled : {true, false}) {
          const std::string inertia =
              scaled ? std::to_string(0.5 * m) + "," + std::to_string(2.0 * m) + "," + std::to_string(m / 0.6)
                     : "300,1200,1000";
          const Sets sets = {{"assist", "false"},        {"collective", "0"},         {"gravity", "0"},
                             {"drag_linear", "0"},       {"drag_angular", "0"},       {"mass", std::to_string(m)},
                             {"inertia", inertia},       {"dt", std::to_string(h)},   {"start_position", "185,5,20"},
                             {"start_heading", heading}, {"start_velocity", "0,15,0"}};
          std::printf("%9g %9.4g %-8s %-14s | %s\n", m, h, heading[0] == '0' ? "side" : "nose",
                      scaled ? "m/600 x dflt" : "default", cell(test::runPassivity("helicopter", sets, 4.0)).c_str());
          std::fflush(stdout);
        }
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const std::vector<double> masses =
      quick ? std::vector<double>{1, 10, 600, 1e5} : std::vector<double>{1, 10, 30, 50, 100, 600, 1e4, 1e5};
  const std::vector<double> steps =
      quick ? std::vector<double>{1.0 / 60.0, 0.1} : std::vector<double>{1e-3, 1.0 / 60.0, 0.05, 0.1};
  padTable(masses, steps);
  wallTable(quick ? std::vector<double>{1, 1e5} : std::vector<double>{1, 600, 1e5},
            std::vector<double>{1.0 / 60.0, 0.1});
  return 0;
}
