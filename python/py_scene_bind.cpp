// pybind11 declarations of varsim.Scene: names, docstrings (with units) and the GIL policy of each method.
#include <pybind11/stl.h>

#include "python/py_scene.h"
#include "scenes/scene_file.h"

namespace py = pybind11;

namespace varsim::python {

void bindScene(py::module_& m) {
  py::class_<PyScene>(m, "Scene", R"doc(A registered scene stepped at its fixed step dt, exactly as `varsim run` steps it.

Scene(name, **params): the scene's defaults (see varsim.describe(name)) with params overriding them; a refused
value raises varsim.BadInput naming the key, the value and the allowed range. Scene.from_file(path, **overrides)
reads a scene file (JSON) as `varsim run FILE.json` does.)doc")
      .def(py::init([](const std::string& name, const py::kwargs& params) {
             SceneConfig config{name, sceneDefaults(name)};
             return std::make_unique<PyScene>(std::move(config), params, "varsim.Scene");
           }),
           py::arg("name"))
      .def_static(
          "from_file",
          [](const std::string& path, const py::kwargs& overrides) {
            return std::make_unique<PyScene>(loadSceneFile(path), overrides, "varsim.Scene.from_file");
          },
          py::arg("path"), "Scene from a scene file (JSON {\"scene\": name, \"params\": {...}}), then overrides.")
      .def_property_readonly("name", &PyScene::name, "Registered scene name (str).")
      .def_property_readonly("params", &PyScene::params,
                             "Parameters in force (dict key -> value, SI units as varsim.describe lists them), "
                             "live edits included; keys that only take effect on a rebuild show their edited value.")
      .def_property_readonly("dt", &PyScene::dt, "Fixed step h (s).")
      .def_property_readonly("t", &PyScene::time, "Simulated time (s).")
      .def_property_readonly("step_count", &PyScene::stepCount, "Physics steps taken since construction.")
      .def_property_readonly("columns", &PyScene::columns,
                             "Names of the CSV columns `varsim run` writes (wall-clock columns left out), in order.")
      .def("step", &PyScene::step, py::arg("n") = 1,
           "Advance n steps of dt with the current controls (GIL released). Raises varsim.Diverged naming the step "
           "and quantity.")
      .def("play", &PyScene::playText, py::arg("inputs"), py::arg("source") = "varsim.Scene.play",
           R"doc(Play an input file's text (the `varsim run --input FILE` format: control rows and param/edit events
by step or time) from step 0 of this scene: from now on each step k applies the events of k, then steps with the
controls of row k, exactly as `varsim run --input` replays it. set_controls() is refused while it plays;
play(None) stops it. Reset events are refused (BadInput). `source` names the text in messages.)doc")
      .def_property_readonly("playing", &PyScene::playing, "True while an input track plays (Scene.play).")
      .def("run", &PyScene::run, py::arg("steps") = py::none(), py::arg("duration") = py::none(),
           py::arg("every") = 1,
           R"doc(Step `steps` times (or round(duration / dt), duration in s; default 10 s) and return a dict of 1-D
float64 numpy arrays keyed by column: the current row, then every `every`-th row, exactly the numbers of
`varsim run --steps N --every K --csv` (energy_gain in J and energy_flag included). The GIL is released.)doc")
      .def("row", &PyScene::row, "The current row (dict column -> float), units as in varsim.describe.")
      .def(
          "set", [](PyScene& s, const py::kwargs& values) { s.set(values); },
          "Live parameter edits (key=value), applied before the next step exactly like a `param` event of an input "
          "file; keys that are not live take effect on a rebuild only (a line is added to warnings).")
      .def("edit", &PyScene::edit, py::arg("key"), py::arg("value"),
           "A scene edit (e.g. a picked joint's eps), as an `edit` event of an input file; an empty value clears it.")
      .def_property_readonly("controls", &PyScene::controls,
                             "Control channels: list of dicts name, min, max, neutral, help (scene units).")
      .def_property_readonly("control_values", &PyScene::controlValues, "Current control values (dict name -> value).")
      .def(
          "set_controls", [](PyScene& s, const py::kwargs& values) { s.setControls(values); },
          "Set control values by name; each is clamped to [min, max] and a non-finite value becomes neutral, as for "
          "a gamepad. They hold until changed.")
      .def("save", &PyScene::save,
           "Snapshot (bytes) of what an app history checkpoint holds — the full state and the settings in force "
           "(running parameter values, values waiting for a rebuild, scene edits) — plus the energy monitor, CSV row, "
           "step count and controls; load() of it resumes bit-identically.")
      .def("load", &PyScene::load, py::arg("snapshot"),
           "Restore a save() of the same scene built with the same rebuild-only parameters (live ones and edits are "
           "restored); anything else raises BadInput and leaves the scene unchanged.")
      .def(
          "state", [](const py::object& self) { return self.cast<PyScene&>().state(self); },
          R"doc(The state as a dict of read-only float64 arrays.
In place (no copy; the integrator's own storage, updated in place by every step, edit and load; each view keeps
the Scene alive): rods (ladder, hanging_chain, sleigh) 'q', 'v' (coordinates and rates) and, when all bodies are
rods, 'x', 'u', 'x_dot', 'u_dot' ([rods x 3]: centres in m, unit directions, their rates); rigid_body,
tumbling_body, helicopter, boat 'R' ([3 x 3] body -> world), 'x' (m, world), 'xi' (body omega rad/s, v m/s) and
with the LGVI 'mu_minus' (body left momentum). Copied (one buffer each call refills; a view holds this call's
values until the next state() call): the standard columns grouped — position (x, y, z; m, world), pose (x, y in
m, theta in rad: planar vehicles), orientation (qw, qx, qy, qz), angular_momentum (L, kg m^2/s, about the world
origin), linear_momentum (p, kg m/s), q (generalized coordinates of tree scenes, rad or m) — where the scene has
them, and 'saved': the full state the app's history keeps (see docs/python.md).)doc")
      .def_property_readonly("warning", &PyScene::warning, "The scene's current parameter warning ('' when none).")
      .def_property_readonly("warnings", &PyScene::warnings,
                             "Every warning line `varsim run` would print on stderr so far (list of str).")
      .def_property_readonly("energy_scale", &PyScene::energyScale,
                             "Energy (J) the integrator's legitimate error is proportional to at this state.")
      .def_property_readonly("input_work", &PyScene::inputWork, "Work (J) done by controls and sources since reset.");
}

}  // namespace varsim::python
