// tests/csv_table.h — minimal reader for the numeric CSV files the tests compare against (reference
// trajectories, headless-runner output): one header row, then rows of numbers. Header-only, test use.
#pragma once
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace varsim::test {

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;

  int index(const std::string& name) const {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return int(i);
    throw std::runtime_error("CSV has no column '" + name + "'");
  }
  double at(size_t row, const std::string& name) const { return rows.at(row).at(size_t(index(name))); }
  std::vector<double> column(const std::string& name) const {
    const int c = index(name);
    std::vector<double> out;
    for (const auto& r : rows) out.push_back(r.at(size_t(c)));
    return out;
  }
};

inline CsvTable readCsv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  CsvTable table;
  std::string line, cell;
  if (!std::getline(in, line)) return table;
  std::stringstream hs(line);
  while (std::getline(hs, cell, ',')) table.header.push_back(cell);
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<double> row;
    std::stringstream ls(line);
    while (std::getline(ls, cell, ',')) row.push_back(std::stod(cell));
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace varsim::test
