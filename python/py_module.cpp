// The compiled part of `import varsim` (varsim._varsim): scene listing, describe, the Scene class
// (py_scene_bind.cpp), the plan (py_plan.cpp), the integrator study and the error types.
// python/varsim/__init__.py re-exports it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "engine/sim/errors.h"
#include "python/py_plan.h"
#include "python/py_scene.h"
#include "scenes/scene.h"
#include "scenes/scene_file.h"
#include "study/study_runner.h"

namespace py = pybind11;

namespace varsim::python {
namespace {

// The study CSV text of `varsim study` with these command-line arguments (args[0] == "study").
std::string studyCsvText(const std::vector<std::string>& args) {
  const study::StudyOptions options = study::parseStudyArgs(args);
  const study::StudyProblem problem = study::configuredProblem(options);
  py::gil_scoped_release release;
  study::StudyControl control;
  const study::StudyOutcome outcome = study::runStudy(problem, options, control, false);
  return study::studyCsvFile(problem, options, outcome.results);
}

}  // namespace
}  // namespace varsim::python

PYBIND11_MODULE(_varsim, m) {
  using namespace varsim;
  m.doc() = "varsim: Lie group variational integrators and SPOOK multibodies (compiled core).";
  py::register_exception<BadInput>(m, "BadInput", PyExc_ValueError);
  py::register_exception<SimulationDiverged>(m, "Diverged", PyExc_RuntimeError);
  m.def(
      "scenes",
      [] {
        std::vector<std::string> names;
        for (const SceneInfo& s : SceneRegistry::all()) names.push_back(s.name);
        return names;
      },
      "Names of the registered scenes, sorted (as `varsim list`).");
  m.def(
      "describe_json",
      [](const std::string& name) {
        sceneDefaults(name);  // an unknown name is refused before describe echoes it
        return describeSceneJson(name);
      },
      py::arg("name"), "`varsim describe NAME` output (JSON text).");
  m.def("study_csv", &python::studyCsvText, py::arg("args"),
        "CSV text of `varsim study` with these arguments (args[0] == 'study'); GIL released while it runs.");
  python::bindScene(m);
  python::bindPlan(m);
}
