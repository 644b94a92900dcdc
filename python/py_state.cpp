// Scene.state() views; see py_state.h.
#include "python/py_state.h"

#include <pybind11/numpy.h>

#include <algorithm>
#include <stdexcept>

namespace py = pybind11;

namespace varsim::python {

std::vector<StateGroup> stateGroups(const std::vector<std::string>& columns) {
  const auto index = [&](const std::string& name) {
    return size_t(std::find(columns.begin(), columns.end(), name) - columns.begin());
  };
  const auto group = [&](const char* name, std::vector<std::string> keys, std::vector<StateGroup>& out) {
    StateGroup g{name, {}};
    for (const std::string& k : keys) {
      if (index(k) == columns.size()) return;  // only complete groups
      g.cols.push_back(index(k));
    }
    out.push_back(std::move(g));
  };
  std::vector<StateGroup> out;
  if (index("z") < columns.size()) group("position", {"x", "y", "z"}, out);
  else group("pose", {"x", "y", "theta"}, out);
  group("orientation", {"qw", "qx", "qy", "qz"}, out);
  group("angular_momentum", {"L_x", "L_y", "L_z"}, out);
  group("linear_momentum", {"p_x", "p_y", "p_z"}, out);
  StateGroup q{"q", {}};
  for (size_t c = 0; c < columns.size(); ++c)
    if (columns[c].rfind("q_", 0) == 0) q.cols.push_back(c);
  if (!q.cols.empty()) out.push_back(std::move(q));
  return out;
}

py::dict StateViews::views(const RunSession& run) {
  run.scene().saveStateInto(saved_);
  size_t size = saved_.size();
  for (const StateGroup& g : groups_) size += g.cols.size();
  if (!buffer_ || py::len(buffer_) != size) buffer_ = py::array_t<double>(py::ssize_t(size));
  auto buffer = py::reinterpret_borrow<py::array_t<double>>(buffer_);
  double* data = buffer.mutable_data();
  py::dict out;
  const auto view = [&](const char* name, size_t at, size_t n) {
    py::array_t<double> v(py::ssize_t(n), data + at, buffer_);  // a view: base = the buffer
    v.attr("setflags")(py::arg("write") = false);
    out[name] = v;
  };
  size_t at = 0;
  const std::vector<double>& row = run.row();
  for (const StateGroup& g : groups_) {
    for (size_t i = 0; i < g.cols.size(); ++i) data[at + i] = row[g.cols[i]];
    view(g.name.c_str(), at, g.cols.size());
    at += g.cols.size();
  }
  std::copy(saved_.begin(), saved_.end(), data + at);
  view("saved", at, saved_.size());
  return out;
}

void StateViews::addBlocks(const Scene& scene, const py::handle& owner, py::dict& out) {
  for (const StateBlock& b : scene.stateBlocks()) {
    if (out.contains(b.name)) throw std::logic_error("state(): block '" + b.name + "' repeats a key");
    const auto bytes = [](long n) { return py::ssize_t(n) * py::ssize_t(sizeof(double)); };
    std::vector<py::ssize_t> shape{b.rows}, strides{bytes(b.rowStride)};
    if (b.cols != 1) shape.push_back(b.cols), strides.push_back(bytes(b.colStride));
    // const_cast only to build the array: it is flagged read-only before Python sees it.
    py::array_t<double> v(shape, strides, const_cast<double*>(b.data), owner);
    v.attr("setflags")(py::arg("write") = false);
    out[py::str(b.name)] = v;
  }
}

}  // namespace varsim::python
