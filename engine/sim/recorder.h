// Recorder of diagnostics rows with CSV export at round-trip precision (%.17g), so conservation can
// be checked from the file. The CSV writer flushes each row: a run that stops on divergence leaves a
// valid file with every row written so far.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

namespace varsim {

class CsvWriter {
 public:
  CsvWriter() = default;
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  ~CsvWriter();
  // Throws BadInput if the file cannot be opened.
  void open(const std::string& path, const std::vector<std::string>& columns);
  void write(const std::vector<double>& row);
  bool isOpen() const { return file_ != nullptr; }
  void close();

 private:
  std::FILE* file_ = nullptr;
};

// In-memory table of diagnostics (used by tests, benchmarks and the app's export).
class Recorder {
 public:
  explicit Recorder(std::vector<std::string> columns = {}) : columns_(std::move(columns)) {}
  void add(const std::vector<double>& row) { rows_.push_back(row); }
  const std::vector<std::string>& columns() const { return columns_; }
  const std::vector<std::vector<double>>& rows() const { return rows_; }
  int columnIndex(const std::string& name) const;  // -1 if absent
  std::vector<double> column(const std::string& name) const;
  void writeCsv(const std::string& path) const;
  void clear() { rows_.clear(); }

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<double>> rows_;
};

}  // namespace varsim
