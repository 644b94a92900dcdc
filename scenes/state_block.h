// A named block of a scene's state read in place: a pointer into the integrator's own storage (an Eigen vector, a
// pose's matrix) with its shape and strides, so python/ can hand it out as a numpy view without copying. A scene
// lists only blocks whose storage keeps its address for the scene's whole life (steps, live edits and loadState
// write the values in place), so a view taken once stays valid and follows the state.
#pragma once
#include <string>
#include <utility>

namespace varsim {

struct StateBlock {
  std::string name;           // e.g. "q", "R"
  const double* data = nullptr;
  long rows = 0, cols = 1;    // cols == 1: a vector of `rows` numbers
  long rowStride = 1;         // doubles between consecutive rows
  long colStride = 1;         // doubles between consecutive columns
  std::string meaning;        // units and layout, for docs and docstrings
};

// Row-major [rows x cols] block of a flat vector with `rowStride` doubles per row, starting at data.
inline StateBlock strided(std::string name, const double* data, long rows, long cols, long rowStride,
                          std::string meaning) {
  return {std::move(name), data, rows, cols, rowStride, 1, std::move(meaning)};
}

}  // namespace varsim
