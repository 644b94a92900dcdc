// Parameter descriptions: the single source for `varsim describe`, scene files, `--set` and UI panels.
// A scene declares a list of ParamSpec; values live in a ParamSet keyed by name and are validated
// against the spec (type, finiteness, range, allowed choices) before any scene is built.
#pragma once
#include <Eigen/Core>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace varsim {

// Path: a file path (text); a relative path in a scene file is resolved against the file's directory.
enum class ParamType { Real, Integer, Bool, Choice, Vector, Path };

struct ParamSpec {
  std::string key;
  ParamType type = ParamType::Real;
  std::vector<double> defaultNumbers;  // 1 entry for scalars, `size` entries for vectors
  std::string defaultChoice;           // Choice and Path
  std::vector<std::string> choices;    // Choice only
  std::string unit;                    // SI unit, "" if dimensionless
  std::string help;                    // one line for users
  double minValue = -1e300;            // per-component range for Real/Integer/Vector
  double maxValue = 1e300;
  bool minExclusive = false;           // e.g. mass > 0
  bool live = false;                   // may change during a run without reset
  bool logScale = false;               // UI hint: log slider
  int size = 1;                        // Vector length; 0: any length (the scene checks it)

  // Builders keep scene declarations to one line each.
  static ParamSpec real(std::string key, double def, double lo, double hi, std::string unit,
                        std::string help, bool loExclusive = false);
  static ParamSpec integer(std::string key, long def, long lo, long hi, std::string help);
  static ParamSpec boolean(std::string key, bool def, std::string help);
  static ParamSpec choice(std::string key, std::string def, std::vector<std::string> choices,
                          std::string help);
  static ParamSpec vector(std::string key, std::vector<double> def, double lo, double hi,
                          std::string unit, std::string help, bool loExclusive = false);
  // A list of any length (also empty: "" on the command line, [] in a scene file).
  static ParamSpec list(std::string key, std::vector<double> def, double lo, double hi, std::string unit,
                        std::string help);
  static ParamSpec path(std::string key, std::string def, std::string help);  // non-empty, < 4096 characters
  ParamSpec& setLive(bool v = true) { live = v; return *this; }
  ParamSpec& setLog(bool v = true) { logScale = v; return *this; }

  std::string rangeText() const;  // "(0, 1e6]", "one of: cay, exp", "true|false"
};

struct ParamValue {
  std::vector<double> numbers;  // Real/Integer/Bool (0/1)/Vector
  std::string choice;           // Choice, Path (the text)
};

// Validated values for one scene instance. Accessors throw BadInput on a wrong key or type, which
// is a programming error in a scene but must still never crash the app.
class ParamSet {
 public:
  ParamSet() = default;
  explicit ParamSet(std::vector<ParamSpec> specs);  // filled with defaults

  const std::vector<ParamSpec>& specs() const { return specs_; }
  const ParamSpec* spec(const std::string& key) const;

  double real(const std::string& key) const;
  long integer(const std::string& key) const;
  bool flag(const std::string& key) const;
  const std::string& choice(const std::string& key) const;
  const std::string& path(const std::string& key) const { return choice(key); }
  const std::vector<double>& vector(const std::string& key) const;
  Eigen::Vector3d vec3(const std::string& key) const;

  // Setters validate and throw BadInput("<source>: key 'k' = v: allowed range ...").
  void setFromString(const std::string& key, const std::string& text, const std::string& source);
  void set(const std::string& key, const ParamValue& value, const std::string& source);
  void setReal(const std::string& key, double v) { set(key, ParamValue{{v}, {}}, "set"); }
  const ParamValue& value(const std::string& key) const;
  std::string valueText(const std::string& key) const;

 private:
  std::vector<ParamSpec> specs_;
  std::map<std::string, ParamValue> values_;
};

// Checks one value against its spec; returns an error text (without source prefix) or nothing.
std::optional<std::string> validateParam(const ParamSpec& spec, const ParamValue& value);
std::string formatNumber(double v);  // shortest round-trip representation

}  // namespace varsim
