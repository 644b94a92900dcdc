// Plot series layout and default plot groups; see header.
#include "ui/core/plot_groups.h"

#include <algorithm>
#include <cmath>

namespace varsim {

void PlotSeriesLayout::configure(const std::vector<std::string>& columns) {
  names_.clear();
  timeColumn_ = energyColumn_ = -1;
  for (size_t c = 0; c < columns.size(); ++c) {
    if (columns[c] == "t") { timeColumn_ = int(c); continue; }  // time is the plot's x axis
    if (columns[c] == "energy") energyColumn_ = int(c);
    names_.push_back(columns[c]);
  }
  if (energyColumn_ >= 0) {
    names_.push_back(kEnergyErrorSeries);
    names_.push_back(kEnergyRelErrorSeries);
  }
  names_.push_back(kAppStepSeries);
  haveE0_ = false;
}

void PlotSeriesLayout::compute(const std::vector<double>& row, double stepMicros, std::vector<double>& out) {
  out.clear();
  for (size_t c = 0; c < row.size(); ++c)
    if (int(c) != timeColumn_) out.push_back(row[c]);
  if (energyColumn_ >= 0) {
    const double e = size_t(energyColumn_) < row.size() ? row[size_t(energyColumn_)] : 0.0;
    if (!haveE0_) { e0_ = e; haveE0_ = true; }
    const double err = e - e0_;
    out.push_back(err);
    out.push_back(std::fabs(e0_) > 0.0 ? err / std::fabs(e0_) : err);
  }
  out.push_back(stepMicros);
  out.resize(names_.size(), 0.0);
}

std::vector<PlotSpec> plotGroupsFor(const std::vector<std::string>& names, const std::vector<PlotSpec>& scenePlots) {
  auto has = [&](const std::string& n) { return std::find(names.begin(), names.end(), n) != names.end(); };
  auto keepPresent = [&](PlotSpec p) {
    p.columns.erase(std::remove_if(p.columns.begin(), p.columns.end(), [&](const std::string& c) { return !has(c); }),
                    p.columns.end());
    return p;
  };
  std::vector<PlotSpec> groups;
  auto add = [&](PlotSpec p) {
    p = keepPresent(std::move(p));
    if (!p.columns.empty()) groups.push_back(std::move(p));
  };
  for (const auto& p : scenePlots) add(p);
  auto covered = [&](const std::string& series) {
    return std::any_of(groups.begin(), groups.end(), [&](const PlotSpec& p) {
      return std::find(p.columns.begin(), p.columns.end(), series) != p.columns.end();
    });
  };
  if (scenePlots.empty()) {
    add({"Energy (J)", {"energy"}, false});
    add({"Angular momentum (N m s)", {"L_x", "L_y", "L_z"}, false});
    add({"Linear momentum (N s)", {"p_x", "p_y", "p_z"}, false});
    add({"Constraint error (m)", {"constraint_rms", "constraint_max"}, true});
    add({"Newton iterations", {"newton_iters"}, false});
  }
  // Always available: the energy error and the step cost, the things users check first.
  if (!covered(kEnergyRelErrorSeries)) add({"Energy error: relative", {kEnergyRelErrorSeries}, false});
  if (!covered(kEnergyErrorSeries)) add({"Energy error: absolute (J)", {kEnergyErrorSeries}, false});
  if (!covered(kAppStepSeries)) add({"Step time (us)", {"step_us", kAppStepSeries}, false});
  return groups;
}

}  // namespace varsim
