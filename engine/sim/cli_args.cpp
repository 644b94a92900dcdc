// See cli_args.h. Paths compare by their absolute normal form, and by file identity when both exist, so
// "x.csv", "./x.csv" and a link to it all count as one file.
#include "engine/sim/cli_args.h"

#include <filesystem>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"

namespace varsim {

void FlagsSeen::once(const std::string& flag) {
  if (!seen_.insert(flag).second)
    throw BadInput(shortText(flag) + " given twice; allowed once (give the value you mean a single time)");
}

static bool sameFile(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code ec1, ec2;
  if (fs::absolute(a, ec1).lexically_normal() == fs::absolute(b, ec2).lexically_normal() && !ec1 && !ec2) return true;
  std::error_code ec;
  return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

void refuseSameFile(const std::vector<std::pair<std::string, std::string>>& flagPaths) {
  for (size_t i = 0; i < flagPaths.size(); ++i)
    for (size_t j = i + 1; j < flagPaths.size(); ++j) {
      const auto &[fa, a] = flagPaths[i];
      const auto &[fb, b] = flagPaths[j];
      if (!a.empty() && !b.empty() && sameFile(a, b))
        throw BadInput(fa + " " + shortText(a) + " and " + fb + " " + shortText(b) +
                       " name the same file; allowed: a different file for each");
    }
}

}  // namespace varsim
