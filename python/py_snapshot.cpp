// Scene snapshots (save/load bytes); see py_snapshot.h. Layout, native byte order: the 8-byte magic, the scene
// name, per parameter (describe order) its key, running value and edited value as text (ParamSet::valueText, exact
// round trip), the scene edits (key, value), the controls, then RunSession::saveState() — strings and arrays each
// prefixed by their uint64 length.
#include "python/py_snapshot.h"

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"

namespace varsim::python {

namespace {
constexpr char kMagic[8] = {'v', 'a', 'r', 's', 'i', 'm', 's', '2'};

void putCount(std::string& out, uint64_t n) { out.append(reinterpret_cast<const char*>(&n), sizeof n); }
void putText(std::string& out, const std::string& s) {
  putCount(out, s.size());
  out += s;
}
void putNumbers(std::string& out, const std::vector<double>& v) {
  putCount(out, v.size());
  if (!v.empty()) out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
}

// Sequential reader that refuses to run past the end.
class Reader {
 public:
  explicit Reader(const std::string& blob) : blob_(blob) {}
  uint64_t count() {
    uint64_t n = 0;
    need(sizeof n);
    std::memcpy(&n, blob_.data() + at_, sizeof n);
    at_ += sizeof n;
    return n;
  }
  std::string text() {
    const uint64_t n = count();
    need(n);
    std::string s = blob_.substr(at_, n);
    at_ += n;
    return s;
  }
  std::vector<double> numbers() {
    const uint64_t n = count();
    if (n > (blob_.size() - at_) / sizeof(double)) truncated();
    std::vector<double> v(n);
    if (n) std::memcpy(v.data(), blob_.data() + at_, n * sizeof(double));  // an empty vector's data() may be null
    at_ += n * sizeof(double);
    return v;
  }
  bool atEnd() const { return at_ == blob_.size(); }

 private:
  void need(uint64_t n) const {
    if (n > blob_.size() - at_) truncated();
  }
  [[noreturn]] void truncated() const {
    throw BadInput("load: snapshot of " + std::to_string(blob_.size()) + " bytes is truncated or corrupt");
  }
  const std::string& blob_;
  size_t at_ = sizeof kMagic;
};

struct Setting {
  std::string key, running, edited;
};
}  // namespace

std::string saveSnapshot(const RunSession& run, const InputVector& inputs) {
  std::string out(kMagic, sizeof kMagic);
  putText(out, run.name());
  const ParamSet& running = run.scene().params();
  const ParamSet& edited = run.edited();
  putCount(out, edited.specs().size());
  for (const ParamSpec& spec : edited.specs()) {
    putText(out, spec.key);
    putText(out, running.valueText(spec.key));
    putText(out, edited.valueText(spec.key));
  }
  const auto edits = run.scene().edits();
  putCount(out, edits.size());
  for (const auto& [key, value] : edits) {
    putText(out, key);
    putText(out, value);
  }
  putNumbers(out, inputs);
  putNumbers(out, run.saveState());
  return out;
}

namespace {
// Applies a parsed snapshot; may leave `run` half restored when it throws (the caller rolls back).
void restore(RunSession& run, const std::vector<Setting>& settings,
             const std::vector<std::pair<std::string, std::string>>& edits, const std::vector<double>& state) {
  const ParamSet& running = run.scene().params();
  for (const Setting& s : settings) {
    const ParamSpec* spec = running.spec(s.key);
    if (!spec)
      throw BadInput("load: snapshot has parameter '" + shortText(s.key) + "', unknown to scene '" + run.name() + "'");
    if (!spec->live && s.running != running.valueText(s.key))
      throw BadInput("load: snapshot taken with " + s.key + "=" + shortText(s.running) + "; this scene has " + s.key +
                     "=" + running.valueText(s.key) + " (a key only a rebuild changes): build the Scene with it");
  }
  // Settings first (applyLive/applyEdit may touch derived data), then the state, as the app restores an entry.
  for (const Setting& s : settings)
    if (s.edited != run.edited().valueText(s.key))
      run.applyEvent({run.stepCount(), InputEvent::Kind::Param, s.key, s.edited, ""});
  run.scene().clearEdits();
  for (const auto& [key, value] : edits) run.applyEvent({run.stepCount(), InputEvent::Kind::Edit, key, value, ""});
  run.loadState(state);
}
}  // namespace

InputVector loadSnapshot(RunSession& run, const std::string& blob, size_t controls) {
  if (blob.size() < sizeof kMagic || blob.compare(0, sizeof kMagic, kMagic, sizeof kMagic) != 0)
    throw BadInput("load: not a varsim Scene.save() snapshot (" + std::to_string(blob.size()) + " bytes)");
  Reader in(blob);
  const std::string scene = in.text();
  if (scene != run.name())
    throw BadInput("load: snapshot of scene '" + shortText(scene) + "'; this scene is '" + run.name() + "'");
  std::vector<Setting> settings;
  for (uint64_t i = 0, n = in.count(); i < n; ++i) {
    Setting s;
    s.key = in.text();
    s.running = in.text();
    s.edited = in.text();
    settings.push_back(std::move(s));
  }
  std::vector<std::pair<std::string, std::string>> edits;
  for (uint64_t i = 0, n = in.count(); i < n; ++i) {
    std::string key = in.text();
    edits.emplace_back(std::move(key), in.text());
  }
  const InputVector inputs = in.numbers();
  const std::vector<double> state = in.numbers();
  if (!in.atEnd() || inputs.size() != controls)
    throw BadInput("load: snapshot does not fit scene '" + run.name() + "' (" + std::to_string(inputs.size()) +
                   " controls, " + std::to_string(blob.size()) + " bytes)");
  const std::string before = saveSnapshot(run, inputs);  // a refusal half way leaves the scene as it was
  try {
    restore(run, settings, edits, state);
  } catch (const BadInput&) {
    loadSnapshot(run, before, controls);
    throw;
  }
  return inputs;
}

}  // namespace varsim::python
