// Scene.state(): named read-only numpy arrays of a scene's state. The scene's stateBlocks (scenes/state_block.h) are
// views of the integrator's own storage, no copy, whose base is the Python Scene (so they keep it, and the storage,
// alive). The standard columns grouped as vectors (position, orientation, momenta, planar pose, generalized
// coordinates) and the full saved state are copied into one buffer that each call refills; those views keep that
// buffer alive themselves.
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
  // Adds a read-only view per scene.stateBlocks() to out, each with base `owner` (the Python object that owns the
  // scene); BadInput-free: a name already in out is a programming error (std::logic_error).
  static void addBlocks(const Scene& scene, const pybind11::handle& owner, pybind11::dict& out);

 private:
  std::vector<StateGroup> groups_;
  std::vector<double> saved_;  // saveStateInto's target, reused
  pybind11::object buffer_;    // numpy float64 array; replaced (never resized) when the size changes
};

}  // namespace varsim::python
