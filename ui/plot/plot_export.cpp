// CSV export of visible plot data; see header.
#include "ui/plot/plot_export.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace varsim {

bool exportVisibleCsv(const std::string& path, const PlotHistory& data, const std::vector<size_t>& series,
                      double tMin, double tMax, std::string& error) {
  for (size_t s : series)
    if (s >= data.seriesCount()) {
      error = "export: series index " + std::to_string(s) + " out of range";
      return false;
    }
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    error = path + ": cannot write (" + std::strerror(errno) + ")";
    return false;
  }
  std::fprintf(f, "t");
  for (size_t s : series) std::fprintf(f, ",%s", data.names()[s].c_str());
  std::fprintf(f, "\n");
  const auto [first, last] = data.range(tMin, tMax);
  for (size_t i = first; i < last; ++i) {
    std::fprintf(f, "%.17g", data.time(i));
    for (size_t s : series) std::fprintf(f, ",%.17g", data.value(s, i));
    std::fprintf(f, "\n");
  }
  const bool ok = std::ferror(f) == 0;
  if (std::fclose(f) != 0 || !ok) {
    error = path + ": write failed";
    return false;
  }
  return true;
}

std::string exportFileName(const std::string& title, double tMin, double tMax) {
  std::string slug;
  for (char c : title) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) slug += char(std::tolower(u));
    else if (!slug.empty() && slug.back() != '_') slug += '_';
  }
  while (!slug.empty() && slug.back() == '_') slug.pop_back();
  if (slug.empty()) slug = "plot";
  char buf[64];
  std::snprintf(buf, sizeof buf, "_t%.2f-%.2f.csv", tMin, tMax);
  return "varsim_" + slug + buf;
}

}  // namespace varsim
