// CSV output for diagnostics; numbers use %.17g so every double round-trips exactly.
#include "engine/sim/recorder.h"

#include "engine/sim/errors.h"

namespace varsim {

CsvWriter::~CsvWriter() { close(); }

void CsvWriter::open(const std::string& path, const std::vector<std::string>& columns) {
  close();
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) throw BadInput(path + ": cannot open CSV file for writing");
  for (size_t i = 0; i < columns.size(); ++i) std::fprintf(file_, "%s%s", i ? "," : "", columns[i].c_str());
  std::fprintf(file_, "\n");
  std::fflush(file_);
}

void CsvWriter::write(const std::vector<double>& row) {
  if (!file_) return;
  for (size_t i = 0; i < row.size(); ++i) std::fprintf(file_, "%s%.17g", i ? "," : "", row[i]);
  std::fprintf(file_, "\n");
  std::fflush(file_);
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
}

}  // namespace varsim
