// Recorded input file: the stick inputs of every physics step and every live edit as a timed event,
// so a replay applies exactly the recorded inputs and edits at exactly the recorded steps — the basis
// of replay, sharing runs and input-driven tests.
//
// Format (CSV text, one scene per file):
//   step,<control>,<control>,...      header: `step` (or `t`, times in s) then each control at most once
//   0,0.5,0                           a row: values hold from their step until the next row
//   event,120,param,epsilon,1e-06     a parameter change (`varsim describe` keys, `--set` value syntax)
//   event,120,edit,relax.5,1e-06,0.05 a scene edit (Scene::applyEdit key and value; the value is the
//                                     rest of the line, commas included; nothing after the key clears it)
//   event,300,reset                   a reset: the scene is rebuilt from the edited parameters
//   # comment                         blank lines and lines starting with '#' are skipped
// Rows and events share the first column's unit (step, or time mapped to the first step at or after it)
// and never decrease in file order. Events at step k apply before step k's physics, in file order.
// Every number goes through parseNumber (number_text.h); steps are integers in [0, kMaxTrackStep].
// Files without events (the format before events) load exactly as before.
#pragma once
#include <string>
#include <vector>

#include "engine/sim/system.h"

namespace varsim {

// The largest step (and largest time / h) an input file may name: 1e9 steps is 193 days at 1/60 s.
constexpr double kMaxTrackStep = 1e9;

struct InputEvent {
  enum class Kind { Param, Edit, Reset };
  long step = 0;  // applies before this physics step's physics (0 = the first step)
  Kind kind = Kind::Param;
  std::string key;    // parameter key (Param) or scene edit key (Edit); empty for Reset
  std::string value;  // text as written in the file; empty clears an Edit
  std::string where;  // "file:line" for messages; empty for events recorded live
  bool operator==(const InputEvent& o) const {
    return step == o.step && kind == o.kind && key == o.key && value == o.value;
  }
};
const char* eventKindName(InputEvent::Kind kind);  // "param" | "edit" | "reset"

class InputTrack {
 public:
  // Parses the text of an input file; `source` names it in messages. Throws BadInput naming the
  // source, line and column on malformed content. Controls absent from the header stay neutral;
  // unknown or repeated columns are errors.
  static InputTrack parse(const std::string& text, const std::string& source, const std::vector<ControlSpec>& controls,
                          double h);
  // Reads the file (whole, NUL bytes included) and parses it.
  static InputTrack load(const std::string& path, const std::vector<ControlSpec>& controls, double h);
  // Input for physics step k (k = 0 is the first step): the last row at or before k.
  InputVector at(long step) const;
  bool empty() const { return steps_.empty() && events_.empty(); }
  long lastStep() const;  // of rows and events

  void append(long step, const InputVector& values);  // recording; only stores changes
  void addEvent(InputEvent event);                    // recording; steps must not decrease (BadInput)
  const std::vector<InputEvent>& events() const { return events_; }
  // Index range [first, last) of the events at `step` in events().
  std::pair<size_t, size_t> eventsAt(long step) const;

  // Writes the file; `comment` (optional, one line per '\n') goes after the header as '#' lines.
  // Throws BadInput if the file cannot be written completely.
  void save(const std::string& path, const std::vector<ControlSpec>& controls, const std::string& comment = "") const;

  InputVector neutral;  // used before the first row

 private:
  std::vector<long> steps_;
  std::vector<InputVector> values_;
  std::vector<InputEvent> events_;
};

InputVector neutralInputs(const std::vector<ControlSpec>& controls);
// Clamps to each control's range; a non-finite value becomes neutral. Returns true if anything was
// changed (the caller shows a notice: physics never sees NaN or out-of-range inputs).
bool sanitizeInputs(const std::vector<ControlSpec>& controls, InputVector& values);

}  // namespace varsim
