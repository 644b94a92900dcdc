// Scene.state(): named read-only numpy arrays of a scene's state — the standard columns grouped as vectors
// (position, orientation, momenta, planar pose, generalized coordinates) and the full saved state — as views of one
// buffer that each call refills. No allocation per call and no copy into Python objects: the views share the
// buffer, which they keep alive themselves (they outlive the Scene safely).
#pragma once
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "scenes/run_session.h"

namespace varsim::python {

struct StateGroup {
  std::string name;          // e.g. "position"
  std::vector<size_t> cols;  // indices into RunSession::row(), in the group's order
};

// The groups a CSV header offers: position (x, y, z), pose (x, y, theta: planar vehicles), orientation (qw, qx, qy,
// qz), angular_momentum (L_x, L_y, L_z), linear_momentum (p_x, p_y, p_z), q (every q_* column, in order).
std::vector<StateGroup> stateGroups(const std::vector<std::string>& columns);

class StateViews {
 public:
  explicit StateViews(const std::vector<std::string>& columns) : groups_(stateGroups(columns)) {}
  // Refills the buffer from run's row and System::saveStateInto and returns {group: view, ..., "saved": view}.
  pybind11::dict views(const RunSession& run);

 private:
  std::vector<StateGroup> groups_;
  std::vector<double> saved_;  // saveStateInto's target, reused
  pybind11::object buffer_;    // numpy float64 array; replaced (never resized) when the size changes
};

}  // namespace varsim::python
