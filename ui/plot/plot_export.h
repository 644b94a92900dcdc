// Exports the samples visible in a plot (its window and series) to CSV at round-trip precision, the
// same format as `varsim run --csv`, so a plotted anomaly can be checked outside the app.
#pragma once
#include <string>
#include <vector>

#include "ui/plot/plot_history.h"

namespace varsim {

// Writes header "t,<series…>" and one row per sample with tMin <= t <= tMax. Returns false with a
// message naming the path on failure (the app shows it; nothing throws).
bool exportVisibleCsv(const std::string& path, const PlotHistory& data, const std::vector<size_t>& series,
                      double tMin, double tMax, std::string& error);

// "varsim_<title>_t<tMin>-<tMax>.csv" with the title reduced to [a-z0-9_].
std::string exportFileName(const std::string& title, double tMin, double tMax);

}  // namespace varsim
