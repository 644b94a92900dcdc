// ui/core/asset_files.h — files the app offers to open: the asset directory ($VARSIM_ASSETS, else the build's
// assets/), its scene presets (assets/scenes/*.json, File > Open scene preset) and one directory's entries for the
// ImGui file dialog (folders and .json files). No ImGui, so the tests list the same entries the menu shows.
#pragma once

#include <string>
#include <vector>

namespace varsim {

// <asset directory>/<relative>.
std::string assetPath(const std::string& relative);

struct ScenePresetFile {
  std::string name;   // file stem, e.g. "car_parking"
  std::string path;   // absolute path
  std::string scene;  // the scene it loads ("" when the file cannot be read; `error` says why)
  std::string error;
};
// Every assets/scenes/*.json, sorted by name; each read for its scene name (a broken file is listed with its error).
std::vector<ScenePresetFile> scenePresetFiles();

struct DirEntry {
  std::string name;  // "name/" for a folder
  std::string path;
  bool folder = false;
};
// Folders (first) and .json files of `dir`, sorted, ".." first unless at the root; hidden entries left out.
// Empty with `error` set when the directory cannot be read.
std::vector<DirEntry> listJsonDirectory(const std::string& dir, std::string& error);

}  // namespace varsim
