// One rule for the command lines (run, plan, study): a single-valued flag given twice is refused (the last one
// silently winning hides a typo), and two flags naming the same file are refused (one would overwrite the other,
// or an output would overwrite an input). Messages name both flags and the value.
#pragma once
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace varsim {

class FlagsSeen {
 public:
  // Throws BadInput "<flag> given twice ...; allowed once" on the second call with the same flag.
  void once(const std::string& flag);

 private:
  std::set<std::string> seen_;
};

// Throws BadInput when two of the (flag, path) pairs name the same file (same path text after normalisation,
// or the same existing file through links). Empty paths are ignored.
void refuseSameFile(const std::vector<std::pair<std::string, std::string>>& flagPaths);

}  // namespace varsim
