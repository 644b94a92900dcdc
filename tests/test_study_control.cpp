// Tests of the study's control path (study/integrator_study.h StudyControl, study/study_runner.h runStudy with a
// control): what the app's "Integrator study" panel relies on. Progress counts add up exactly, a cancel stops the
// step loops within a poll interval and leaves flagged partial results (never a crash or a NaN mean), the in-memory
// results of the panel's path are the rows `varsim study --csv` writes, and the subset flags (--methods, --hmax,
// --hmin) the panel maps to are validated like every other flag (exit 2).
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string>
#include <thread>

#include "study/study_aggregate.h"
#include "study/study_runner.h"
#include "tests/headless_capture.h"

using namespace varsim;
using namespace varsim::study;

namespace {

bool sanitized() { return std::getenv("VARSIM_SANITIZED") != nullptr; }

// Runs the study on a worker thread as the app's panel does, sets the cancel flag once `when` holds (polling, no
// timing assertion) and returns the outcome; `atCancel` gets the steps counted when the flag was set.
template <class When>
StudyOutcome runAndCancel(const StudyProblem& p, const StudyOptions& o, StudyControl& control, When when,
                          long& atCancel) {
  std::atomic<bool> finished{false};
  StudyOutcome out;
  std::thread worker([&] {
    out = runStudy(p, o, control, false);
    finished = true;
  });
  while (!finished && !when()) std::this_thread::sleep_for(std::chrono::microseconds(200));
  control.cancel = true;
  atCancel = control.stepsDone;
  worker.join();
  return out;
}

}  // namespace

TEST_CASE("StudyProgressCountsAddUp") {
  const StudyOptions o = parseStudyArgs({"study", "fig5", "--runs", "3", "--duration", "4", "--seed", "3"});
  const StudyProblem p = configuredProblem(o);
  StudyControl control;
  const StudyOutcome out = runStudy(p, o, control, false);
  CHECK_FALSE(out.cancelled);
  const int rows = p.runs * int(p.methods.size() * p.steps.size());
  CHECK(int(out.results.size()) == rows);
  CHECK(control.rowsDone == rows);
  CHECK(control.casesDone == p.runs);
  // Every step of the truth and of every (method, h), blown-up remainders included.
  CHECK(control.stepsDone == long(p.runs) * caseSteps(p));
  CHECK(caseSteps(p) == 4 * 8192 + 3 * 4 * (2 + 4 + 8 + 16 + 32 + 64 + 128));
}

TEST_CASE("InMemoryResultsAreTheHeadlessCsvRows") {
  const std::vector<std::string> args = {"study", "fig4",   "--runs", "2",     "--duration", "6",         "--seed",
                                         "11",    "--methods", "rk4,lgvi,rk2", "--hmax",     "0.5", "--hmin", "0.0625"};
  const StudyOptions o = parseStudyArgs(args);
  const StudyProblem p = configuredProblem(o);
  CHECK(p.methods == std::vector<std::string>{"lgvi", "rk2", "rk4"});  // the figure's order
  CHECK(p.steps == std::vector<double>{0.5, 0.25, 0.125, 0.0625});
  StudyControl control;
  const StudyOutcome out = runStudy(p, o, control, false);
  std::vector<std::string> withCsv = args;
  const std::string path = test::testOut("study_control_rows.csv");
  withCsv.insert(withCsv.end(), {"--csv", path});
  const auto r = test::runCaptured(withCsv);
  REQUIRE(r.exitCode == 0);
  CHECK(test::readFile(path) == studyCsv(out.results, false));
  CHECK(out.results.size() == 2 * 3 * 4);
}

TEST_CASE("CancelStopsWithinAPollAndKeepsFlaggedPartialResults") {
  // fig4's long truth (240 s at 2^-12: ~1e6 RK4 steps per case) is far from done when the cancel comes.
  StudyOptions o = parseStudyArgs({"study", "fig4", "--runs", "4", "--threads", "2"});
  const StudyProblem p = configuredProblem(o);
  StudyControl control;
  long atCancel = 0;
  const StudyOutcome out =
      runAndCancel(p, o, control, [&] { return control.stepsDone > 4 * kStudyPollSteps; }, atCancel);
  CHECK(out.cancelled);
  // Each of the 2 threads takes at most one more poll interval, plus what its meter held unflushed.
  CHECK(control.stepsDone - atCancel <= 2 * 2 * kStudyPollSteps);
  CHECK(out.results.empty());  // no row finished: the truths were still running
  CHECK(control.casesDone == 0);
  CHECK(studySummary(p, out.results).find("nan") == std::string::npos);
}

TEST_CASE("CancelAfterSomeRowsKeepsThoseRows") {
  StudyOptions o = parseStudyArgs({"study", "fig5", "--runs", "6", "--duration", sanitized() ? "10" : "60",
                                   "--threads", "1"});
  const StudyProblem p = configuredProblem(o);
  StudyControl control;
  long atCancel = 0;
  const StudyOutcome out = runAndCancel(p, o, control, [&] { return control.rowsDone >= 3; }, atCancel);
  const int total = p.runs * int(p.methods.size() * p.steps.size());
  MESSAGE(out.results.size() << " of " << total << " rows before the cancel");
  CHECK(out.cancelled);
  CHECK(int(out.results.size()) == control.rowsDone);
  CHECK(out.results.size() >= 3);
  CHECK(int(out.results.size()) < total);
  for (const RunResult& r : out.results) CHECK((r.blowup || std::isfinite(r.posErr)));
  const std::vector<StudyCell> cells = aggregateStudy(p, out.results);
  CHECK(cells.size() == p.methods.size() * p.steps.size());
  for (const StudyCell& c : cells) CHECK(c.ok + c.blowups <= p.runs);
  const std::string summary = studySummary(p, out.results);
  CHECK_MESSAGE(summary.find("nan") == std::string::npos, summary);
}

TEST_CASE("OrbitsMatchTheirCsvAndObeyCancel") {
  StudyOptions o = parseStudyArgs({"study", "fig3", "--duration", "5", "--h", "0.5"});
  const StudyProblem p = configuredProblem(o);
  const std::vector<Orbit> orbitsOf = orbits(p, 1, 0, 0.5);
  const std::vector<std::string> rows = orbitRows(p, 1, 0, 0.5);
  REQUIRE(orbitsOf.size() == p.methods.size() + 1);
  CHECK(orbitsOf[0].method == "truth");
  size_t nodes = 0;
  for (const Orbit& orbit : orbitsOf) {
    nodes += orbit.t.size();
    for (const auto& v : orbit.values) CHECK(v.size() == orbitColumns().size());
    if (!orbit.blowup) CHECK(orbit.t.size() == 11);  // t = 0, 0.5, ..., 5
  }
  CHECK(rows.size() == 1 + nodes);
  CHECK(rows[0] == "method,t,omega_x,omega_y,omega_z,x,y,z,qw,qx,qy,qz,energy,L");
  StudyControl control;
  control.cancel = true;
  CHECK_THROWS_AS(orbits(p, 1, 0, 0.5, &control), StudyCancelled);
}

TEST_CASE("SubsetFlagsRefusedOutsideTheFigure") {
  for (const auto& args : std::vector<std::vector<std::string>>{{"study", "fig4", "--methods", "rk4,euler"},
                                                                {"study", "fig5", "--methods", "lgvi"},
                                                                {"study", "fig4", "--methods", ""},
                                                                {"study", "fig4", "--hmax", "0.3"},
                                                                {"study", "fig5", "--hmin", "1"},
                                                                {"study", "fig4", "--hmin", "0.5", "--hmax", "0.25"},
                                                                {"study", "fig3", "--hmax", "0.25"}}) {
    const auto r = test::runCaptured(args);
    CHECK_MESSAGE(r.exitCode == 2, args[2] << " " << args[3]);
    CHECK(r.err.find("varsim: error: " + args[2]) != std::string::npos);
  }
}
