// Recorder of diagnostics rows with CSV export at round-trip precision (%.17g), so conservation can
// be checked from the file. The CSV writer flushes each row: a run that stops on divergence leaves a
// valid file with every row written so far. Every write is checked: a full disk or /dev/full stops the
// run with BadInput instead of losing rows silently.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

namespace varsim {

// Wall-clock columns (step_us, solve_us, step_us_rk4: a "_us" word in the name) differ between two
// runs of the same command, so the headless CSV keeps them only on request (--timings).
bool isWallClockColumn(const std::string& name);
enum class CsvTimings { Keep, Drop };

class CsvWriter {
 public:
  CsvWriter() = default;
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  ~CsvWriter();
  // Throws BadInput if the file cannot be opened or written; Drop leaves out wall-clock columns.
  void open(const std::string& path, const std::vector<std::string>& columns, CsvTimings timings = CsvTimings::Keep);
  void write(const std::vector<double>& row);  // throws BadInput on a failed write
  bool isOpen() const { return file_ != nullptr; }
  void finish();  // closes and throws BadInput if the last bytes could not be written
  void close();   // closes without checking (destructor, error paths)

 private:
  void check(bool ok, const char* what);
  std::FILE* file_ = nullptr;
  std::string path_;
  std::vector<bool> keep_;  // per column of open()
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
