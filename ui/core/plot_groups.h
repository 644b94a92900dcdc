// Which series the app records for plotting and how they are grouped into plots: the scene's own
// plots() when it declares them, otherwise defaults built from the standard column names
// (ARCHITECTURE.md): energy, its absolute and relative error, momenta, constraint error (log-y),
// Newton iterations and step time. Derived series are computed here from each diagnostics row.
#pragma once
#include <string>
#include <vector>

#include "engine/sim/system.h"

namespace varsim {

// Derived series appended after the scene's columns.
constexpr const char* kEnergyErrorSeries = "energy_error";         // E - E0, J
constexpr const char* kEnergyRelErrorSeries = "energy_rel_error";  // (E - E0)/|E0| (E - E0 if E0 = 0)
constexpr const char* kAppStepSeries = "app_step_us";              // wall time of step() measured by the app

class PlotSeriesLayout {
 public:
  void configure(const std::vector<std::string>& columns);
  const std::vector<std::string>& names() const { return names_; }
  // Fills `out` (names().size() values) from a diagnostics row; call reset() at t = 0 so E0 is retaken.
  void compute(const std::vector<double>& row, double stepMicros, std::vector<double>& out);
  void reset() { haveE0_ = false; }

 private:
  std::vector<std::string> names_;
  int timeColumn_ = -1, energyColumn_ = -1;
  bool haveE0_ = false;
  double e0_ = 0.0;
};

// Groups over the available series names; groups whose series are all absent are dropped.
std::vector<PlotSpec> plotGroupsFor(const std::vector<std::string>& seriesNames,
                                    const std::vector<PlotSpec>& scenePlots);

}  // namespace varsim
