// ui/core/asset_files.cpp — asset directory, scene preset list and the file dialog's directory listing.
#include "ui/core/asset_files.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "engine/sim/errors.h"
#include "scenes/scene_file.h"

namespace varsim {

namespace fs = std::filesystem;

std::string assetPath(const std::string& relative) {
  const char* env = std::getenv("VARSIM_ASSETS");
  return std::string(env && *env ? env : VARSIM_ASSET_DIR) + "/" + relative;
}

std::vector<ScenePresetFile> scenePresetFiles() {
  std::vector<ScenePresetFile> out;
  std::string error;
  for (const DirEntry& e : listJsonDirectory(assetPath("scenes"), error)) {
    if (e.folder) continue;
    ScenePresetFile f;
    f.name = fs::path(e.path).stem().string();
    f.path = e.path;
    try {
      f.scene = loadSceneFile(e.path).scene;
    } catch (const BadInput& ex) {
      f.error = ex.what();
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<DirEntry> listJsonDirectory(const std::string& dir, std::string& error) {
  std::vector<DirEntry> folders, files;
  std::error_code ec;
  const fs::path root = fs::absolute(dir.empty() ? fs::path(".") : fs::path(dir), ec).lexically_normal();
  fs::directory_iterator it(root, ec);
  if (ec) {
    error = "cannot list '" + root.string() + "': " + ec.message();
    return {};
  }
  error.clear();
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code typeError;
    if (it->is_directory(typeError)) folders.push_back({name + "/", it->path().string(), true});
    else if (it->path().extension() == ".json") files.push_back({name, it->path().string(), false});
  }
  auto byName = [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; };
  std::sort(folders.begin(), folders.end(), byName);
  std::sort(files.begin(), files.end(), byName);
  std::vector<DirEntry> out;
  const fs::path root_path = root.has_filename() ? root : root.parent_path();
  if (root_path.has_parent_path() && root_path != root_path.root_path())
    out.push_back({"../", root_path.parent_path().string(), true});
  out.insert(out.end(), folders.begin(), folders.end());
  out.insert(out.end(), files.begin(), files.end());
  return out;
}

}  // namespace varsim
