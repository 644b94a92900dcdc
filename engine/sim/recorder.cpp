// CSV output for diagnostics; numbers use %.17g so every double round-trips exactly.
#include "engine/sim/recorder.h"

#include <cerrno>
#include <cstring>

#include "engine/sim/errors.h"

namespace varsim {

bool isWallClockColumn(const std::string& name) {
  const std::string tag = "_us";
  for (size_t at = name.find(tag); at != std::string::npos; at = name.find(tag, at + 1)) {
    const size_t after = at + tag.size();
    if (after == name.size() || name[after] == '_') return true;
  }
  return false;
}

CsvWriter::~CsvWriter() { close(); }

void CsvWriter::check(bool ok, const char* what) {
  if (ok) return;
  const std::string reason = std::strerror(errno);
  close();
  throw BadInput(path_ + ": " + what + " failed: " + reason);
}

void CsvWriter::open(const std::string& path, const std::vector<std::string>& columns, CsvTimings timings) {
  close();
  path_ = path;
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) throw BadInput(path + ": cannot open CSV file for writing: " + std::strerror(errno));
  keep_.clear();
  bool first = true;
  for (const auto& c : columns) {
    keep_.push_back(timings == CsvTimings::Keep || !isWallClockColumn(c));
    if (!keep_.back()) continue;
    check(std::fprintf(file_, "%s%s", first ? "" : ",", c.c_str()) >= 0, "writing the CSV header");
    first = false;
  }
  check(std::fputc('\n', file_) != EOF && std::fflush(file_) == 0, "writing the CSV header");
}

void CsvWriter::write(const std::vector<double>& row) {
  if (!file_) return;
  bool first = true;
  for (size_t i = 0; i < row.size(); ++i) {
    if (i < keep_.size() && !keep_[i]) continue;
    check(std::fprintf(file_, "%s%.17g", first ? "" : ",", row[i]) >= 0, "writing a CSV row");
    first = false;
  }
  check(std::fputc('\n', file_) != EOF && std::fflush(file_) == 0, "writing a CSV row");
}

void CsvWriter::finish() {
  if (!file_) return;
  const bool ok = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!ok) throw BadInput(path_ + ": closing the CSV file failed: " + std::strerror(errno));
}

void CsvWriter::close() {
  if (file_) std::fclose(file_);
  file_ = nullptr;
}

int Recorder::columnIndex(const std::string& name) const {
  for (size_t i = 0; i < columns_.size(); ++i)
    if (columns_[i] == name) return int(i);
  return -1;
}

std::vector<double> Recorder::column(const std::string& name) const {
  std::vector<double> out;
  const int c = columnIndex(name);
  if (c < 0) return out;
  for (const auto& r : rows_) out.push_back(r[size_t(c)]);
  return out;
}

void Recorder::writeCsv(const std::string& path) const {
  CsvWriter w;
  w.open(path, columns_);
  for (const auto& r : rows_) w.write(r);
  w.finish();
}

}  // namespace varsim
