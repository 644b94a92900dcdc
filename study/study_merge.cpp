// Merging sharded study CSVs; see study_merge.h. Rows are kept as text, so the merged file holds the shards' own
// bytes; only their order is decided here: the method order is the order of first appearance (every shard lists
// the figure's methods in its order), then h descending, then run ascending, as runStudy orders them.
#include "study/study_merge.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"

namespace varsim::study {

namespace {

struct Row {
  int method;
  double h;
  long run;
  std::string text;
};

Row parseRow(const std::string& line, const std::string& where, std::map<std::string, int>& methods) {
  std::stringstream cells(line);
  std::string method, h, run;
  if (!std::getline(cells, method, ',') || !std::getline(cells, h, ',') || !std::getline(cells, run, ','))
    throw BadInput(where + ": expected method,h,run,... (a `varsim study --csv` row)");
  const NumberText hn = parseNumber(h), rn = parseCount(run, 0, 1e6);
  if (!hn.ok || !rn.ok) throw BadInput(where + ": h '" + shortText(h) + "' or run '" + shortText(run) + "' is not a number");
  const auto m = methods.emplace(method, int(methods.size())).first;
  return {m->second, hn.value, long(rn.value), line};
}

}  // namespace

int studyMergeCommand(const std::vector<std::string>& args) {
  std::vector<std::string> parts;
  std::string out;
  for (size_t i = 2; i < args.size(); ++i) {
    if (args[i] == "--csv") {
      if (i + 1 >= args.size() || args[i + 1].empty()) throw BadInput("--csv: missing file name");
      out = args[++i];
    } else {
      parts.push_back(args[i]);
    }
  }
  if (parts.empty() || out.empty()) throw BadInput("usage: varsim study merge PART.csv... --csv ALL.csv");
  std::string header;
  std::map<std::string, int> methods;
  std::vector<Row> rows;
  for (const std::string& path : parts) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw BadInput(shortText(path) + ": cannot open for reading");
    std::string line;
    if (!std::getline(in, line)) throw BadInput(shortText(path) + ": empty file; expected a `varsim study --csv` file");
    if (header.empty()) header = line;
    else if (line != header) throw BadInput(shortText(path) + ":1: header differs from " + shortText(parts[0]) + "'s");
    for (long n = 2; std::getline(in, line); ++n) rows.push_back(parseRow(line, shortText(path) + ":" + std::to_string(n), methods));
  }
  const auto key = [](const Row& r) { return std::make_tuple(r.method, -r.h, r.run); };
  std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) { return key(a) < key(b); });
  for (size_t i = 1; i < rows.size(); ++i)
    if (key(rows[i]) == key(rows[i - 1]))
      throw BadInput("row repeated in the parts (method, h, run): " + shortText(rows[i].text, 80));
  std::ofstream csv(out, std::ios::binary);
  if (!csv) throw BadInput("--csv " + shortText(out) + ": cannot open for writing");
  csv << header << '\n';
  for (const Row& r : rows) csv << r.text << '\n';
  csv.flush();
  if (!csv) throw BadInput("--csv " + shortText(out) + ": write failed");
  return 0;
}

}  // namespace varsim::study
