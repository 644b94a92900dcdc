// Input file parsing/writing. Parsing is strict (every number through parseNumber, bad or repeated
// columns, wrong column counts, decreasing steps, NUL bytes are errors with file:line) because a
// silently misread run would not replay.
#include "engine/sim/input_track.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "engine/sim/errors.h"
#include "engine/sim/file_read.h"
#include "engine/sim/number_text.h"
#include "engine/sim/param.h"

namespace varsim {

InputVector neutralInputs(const std::vector<ControlSpec>& controls) {
  InputVector v;
  for (const auto& c : controls) v.push_back(c.neutral);
  return v;
}

bool sanitizeInputs(const std::vector<ControlSpec>& controls, InputVector& values) {
  bool changed = values.size() != controls.size();
  values.resize(controls.size(), 0.0);
  for (size_t i = 0; i < controls.size(); ++i) {
    double& v = values[i];
    if (!std::isfinite(v)) {
      v = controls[i].neutral;
      changed = true;
    }
    if (v < controls[i].min) {
      v = controls[i].min;
      changed = true;
    }
    if (v > controls[i].max) {
      v = controls[i].max;
      changed = true;
    }
  }
  return changed;
}

const char* eventKindName(InputEvent::Kind kind) {
  switch (kind) {
    case InputEvent::Kind::Param:
      return "param";
    case InputEvent::Kind::Edit:
      return "edit";
    case InputEvent::Kind::Reset:
      return "reset";
  }
  return "?";
}

namespace {

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
  size_t b = 0;
  while (b < s.size() && s[b] == ' ') ++b;
  return s.substr(b);
}

// Splits at commas into at most `maxParts` cells (the last keeps the rest of the line, commas too).
std::vector<std::string> splitCsv(const std::string& line, size_t maxParts = std::string::npos) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t comma = out.size() + 1 < maxParts ? line.find(',', start) : std::string::npos;
    // Cells are not trimmed: " 0.5" is refused by parseNumber exactly as `--set k= 0.5` is.
    out.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos && !out.back().empty() && out.back().back() == '\r') out.back().pop_back();
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::string shown(const std::string& text) { return text.size() > 40 ? text.substr(0, 40) + "..." : text; }

// The parser's position, for messages naming file and line.
struct Where {
  const std::string& source;
  long line = 0;
  std::string str() const { return source + ":" + std::to_string(line); }
  [[noreturn]] void fail(const std::string& what) const { throw BadInput(str() + ": " + what); }
};

// The first column of a row or event: an integer step, or a time mapped to the first step whose
// start time is at or after it. Range-checked before any conversion to an integer.
long parseStepCell(const std::string& cell, bool byTime, double h, const Where& at) {
  const NumberText n = parseNumber(cell);
  const char* what = byTime ? "time" : "step";
  if (!n.ok) at.fail(std::string("column '") + (byTime ? "t" : "step") + "': " + n.error);
  if (n.value < 0) at.fail(std::string(what) + " " + shown(cell) + " is negative; " + what + "s start at 0");
  if (!byTime) {
    if (n.value > kMaxTrackStep)
      at.fail("step " + shown(cell) + " exceeds the largest step " + formatNumber(kMaxTrackStep));
    if (n.value != std::floor(n.value)) at.fail("step " + shown(cell) + " is not an integer");
    return long(n.value);
  }
  const double steps = std::ceil(n.value / h - 1e-9);
  if (!(steps <= kMaxTrackStep))
    at.fail("time " + shown(cell) + " s exceeds the largest time " + formatNumber(kMaxTrackStep * h) + " s (" +
            formatNumber(kMaxTrackStep) + " steps of h = " + formatNumber(h) + " s)");
  return std::max(0L, long(steps));
}

// Column c of the header → control index; each control at most once.
std::vector<int> headerColumns(const std::vector<std::string>& header, const std::vector<ControlSpec>& controls,
                               const Where& at) {
  std::vector<int> column(header.size(), -1);
  for (size_t c = 1; c < header.size(); ++c) {
    for (size_t i = 0; i < controls.size(); ++i)
      if (controls[i].name == header[c]) column[c] = int(i);
    if (column[c] < 0) {
      std::string known;
      for (const auto& ctl : controls) known += (known.empty() ? "" : ", ") + ctl.name;
      at.fail("unknown control '" + shown(header[c]) + "'; this scene's controls: " + (known.empty() ? "none" : known));
    }
    for (size_t p = 1; p < c; ++p)
      if (column[p] == column[c])
        at.fail("column '" + header[c] + "' appears twice (columns " + std::to_string(p + 1) + " and " +
                std::to_string(c + 1) + "); each control at most once");
  }
  return column;
}

InputEvent parseEvent(const std::string& line, bool byTime, double h, const Where& at) {
  const std::vector<std::string> cells = splitCsv(line, 5);  // event, step, kind, key, value...
  if (cells.size() < 3) at.fail("an event needs 'event,<step>,<kind>[,<key>[,<value>]]'");
  InputEvent e;
  e.step = parseStepCell(cells[1], byTime, h, at);
  e.key = cells.size() > 3 ? cells[3] : "";
  e.value = cells.size() > 4 ? cells[4] : "";
  e.where = at.str();
  const std::string& kind = cells[2];
  if (kind == "param" || kind == "edit") {
    e.kind = kind == "param" ? InputEvent::Kind::Param : InputEvent::Kind::Edit;
    if (e.key.empty()) at.fail(kind + " event without a key");
    if (e.kind == InputEvent::Kind::Param && e.value.empty()) at.fail("param event '" + e.key + "' without a value");
  } else if (kind == "reset") {
    e.kind = InputEvent::Kind::Reset;
    if (!e.key.empty() || !e.value.empty()) at.fail("a reset event takes no key or value");
  } else if (kind == "scene") {
    at.fail(
        "scene switches are not recorded: an input file holds the inputs of one scene (record each scene in "
        "its own file)");
  } else {
    at.fail("unknown event kind '" + shown(kind) + "'; allowed: param, edit, reset");
  }
  return e;
}

}  // namespace

InputTrack InputTrack::parse(const std::string& text, const std::string& source,
                             const std::vector<ControlSpec>& controls, double h) {
  Where at{source, 1};
  // A NUL byte would end the text early for every C string routine: refuse it where it is.
  if (const size_t nul = text.find('\0'); nul != std::string::npos) {
    at.line = 1 + long(std::count(text.begin(), text.begin() + long(nul), '\n'));
    const size_t lineStart = text.rfind('\n', nul);
    const size_t col = nul - (lineStart == std::string::npos ? 0 : lineStart + 1) + 1;
    at.fail("NUL byte at column " + std::to_string(col) + "; an input file is text");
  }
  InputTrack track;
  track.neutral = neutralInputs(controls);
  size_t pos = 0;
  auto nextLine = [&](std::string& line) {
    if (pos >= text.size()) return false;
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    line = text.substr(pos, end - pos);
    pos = end + 1;
    return true;
  };
  std::string line;
  if (!nextLine(line)) throw BadInput(source + ": empty input file (expected a header 'step,<controls>')");
  const std::vector<std::string> header = splitCsv(line);
  if (header[0] != "step" && header[0] != "t") at.fail("first column must be 'step' or 't'");
  const bool byTime = header[0] == "t";
  const std::vector<int> column = headerColumns(header, controls, at);
  InputVector current = track.neutral;
  long last = 0;
  while (nextLine(line)) {
    ++at.line;
    if (trim(line).empty() || line[0] == '#') continue;
    std::vector<std::string> cells = splitCsv(line);
    if (cells[0] == "event") {
      InputEvent e = parseEvent(line, byTime, h, at);
      if (e.step < last) at.fail("steps/times must not decrease");
      last = e.step;
      track.events_.push_back(std::move(e));
      continue;
    }
    if (cells.size() != header.size())
      at.fail("expected " + std::to_string(header.size()) + " columns, got " + std::to_string(cells.size()));
    const long step = parseStepCell(cells[0], byTime, h, at);
    if (step < last) at.fail("steps/times must not decrease");
    last = step;
    for (size_t c = 1; c < cells.size(); ++c) {
      const NumberText n = parseNumber(cells[c]);
      if (!n.ok) at.fail("column '" + header[c] + "': " + n.error);
      const ControlSpec& spec = controls[size_t(column[c])];
      if (n.value < spec.min || n.value > spec.max)
        at.fail("control '" + spec.name + "' = " + formatNumber(n.value) + " is out of range [" +
                formatNumber(spec.min) + ", " + formatNumber(spec.max) + "]");
      current[size_t(column[c])] = n.value;
    }
    if (!track.steps_.empty() && track.steps_.back() == step)
      track.values_.back() = current;
    else {
      track.steps_.push_back(step);
      track.values_.push_back(current);
    }
  }
  return track;
}

InputTrack InputTrack::load(const std::string& path, const std::vector<ControlSpec>& controls, double h) {
  return parse(readUserFile(path, "input file", kMaxInputFileBytes), path, controls, h);
}

long InputTrack::lastStep() const {
  long last = steps_.empty() ? 0 : steps_.back();
  if (!events_.empty()) last = std::max(last, events_.back().step);
  return last;
}

InputVector InputTrack::at(long step) const {
  // The last row at or before `step`.
  const auto it = std::upper_bound(steps_.begin(), steps_.end(), step);
  if (it == steps_.begin()) return neutral;
  return values_[size_t(it - steps_.begin()) - 1];
}

std::pair<size_t, size_t> InputTrack::eventsAt(long step) const {
  const auto lo =
      std::lower_bound(events_.begin(), events_.end(), step, [](const InputEvent& e, long k) { return e.step < k; });
  auto hi = lo;
  while (hi != events_.end() && hi->step == step) ++hi;
  return {size_t(lo - events_.begin()), size_t(hi - events_.begin())};
}

void InputTrack::append(long step, const InputVector& values) {
  if (!values_.empty() && values_.back() == values) return;
  if (!steps_.empty() && steps_.back() == step) {
    values_.back() = values;
    return;
  }
  steps_.push_back(step);
  values_.push_back(values);
}

void InputTrack::addEvent(InputEvent event) {
  if (!events_.empty() && event.step < events_.back().step)
    throw BadInput("event at step " + std::to_string(event.step) + " after one at step " +
                   std::to_string(events_.back().step));
  // The text must come back from the file as it was written.
  for (const std::string* s : {&event.key, &event.value})
    if (s->find_first_of(std::string("\n\r\0", 3)) != std::string::npos || trim(*s) != *s)
      throw BadInput("event '" + shown(event.key) + "': key and value must be one line without surrounding spaces");
  if (event.key.find(',') != std::string::npos) throw BadInput("event key '" + shown(event.key) + "' contains a comma");
  events_.push_back(std::move(event));
}

static void writeEvent(std::FILE* f, const InputEvent& e) {
  std::fprintf(f, "event,%ld,%s", e.step, eventKindName(e.kind));
  if (!e.key.empty()) std::fprintf(f, ",%s", e.key.c_str());
  if (!e.value.empty()) std::fprintf(f, ",%s", e.value.c_str());
  std::fprintf(f, "\n");
}

void InputTrack::save(const std::string& path, const std::vector<ControlSpec>& controls,
                      const std::string& comment) const {
  std::FILE* f = path.empty() ? nullptr : std::fopen(path.c_str(), "w");
  if (!f)
    throw BadInput((path.empty() ? std::string("input file: empty path") : path) +
                   ": cannot write input file: " + std::strerror(errno));
  std::fprintf(f, "step");
  for (const auto& c : controls) std::fprintf(f, ",%s", c.name.c_str());
  std::fprintf(f, "\n");
  for (size_t b = 0; b < comment.size();) {
    size_t e = comment.find('\n', b);
    if (e == std::string::npos) e = comment.size();
    std::fprintf(f, "# %s\n", comment.substr(b, e - b).c_str());
    b = e + 1;
  }
  // Rows and events merged by step (rows first at equal steps: both apply before that step's physics).
  size_t j = 0;
  for (size_t r = 0; r < steps_.size(); ++r) {
    for (; j < events_.size() && events_[j].step < steps_[r]; ++j) writeEvent(f, events_[j]);
    std::fprintf(f, "%ld", steps_[r]);
    for (double v : values_[r]) std::fprintf(f, ",%.17g", v);
    std::fprintf(f, "\n");
  }
  for (; j < events_.size(); ++j) writeEvent(f, events_[j]);
  const bool failed = std::ferror(f) != 0;
  if (std::fclose(f) != 0 || failed) throw BadInput(path + ": write error; the input file is incomplete");
}

}  // namespace varsim
