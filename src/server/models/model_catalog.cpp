#include "server/models/model_catalog.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>

#include "gguf/reader.h"

namespace ingot::server {
namespace fs = std::filesystem;

namespace {

bool inside(const fs::path& path, const fs::path& dir) {
  const auto [dir_end, path_it] = std::mismatch(dir.begin(), dir.end(), path.begin(), path.end());
  return dir_end == dir.end() && path_it != path.end();
}

}  // namespace

Result<ModelCatalog> ModelCatalog::scan(const std::string& dir) {
  std::error_code error;
  const fs::path root = fs::canonical(dir, error);
  if (error || !fs::is_directory(root)) {
    return invalid_argument("--models " + dir + ": not a directory");
  }
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(root, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (it->path().extension() != ".gguf") continue;
    const fs::path real = fs::canonical(it->path(), error);
    if (error || !fs::is_regular_file(real)) continue;
    if (!inside(real, root)) {
      spdlog::warn("--models: {} leads outside {}; not served", it->path().string(), root.string());
      continue;
    }
    files.push_back(it->path().string());
  }
  if (error) return invalid_argument("--models " + dir + ": " + error.message());
  std::sort(files.begin(), files.end());
  ModelCatalog catalog;
  for (const std::string& file : files) INGOT_RETURN_IF_ERROR(catalog.add(file));
  if (catalog.entries_.empty()) return invalid_argument("--models " + dir + ": no GGUF models");
  return catalog;
}

Result<ModelCatalog> ModelCatalog::of_files(const std::vector<std::string>& paths) {
  ModelCatalog catalog;
  for (const std::string& path : paths) {
    const size_t before = catalog.entries_.size();
    if (auto added = catalog.add(path); !added.ok()) return added.error();
    if (catalog.entries_.size() == before) return invalid_argument(path + " is not a model");
  }
  return catalog;
}

Status ModelCatalog::add(const std::string& path) {
  auto file = gguf::GgufFile::open(path);
  if (!file.ok()) {
    spdlog::warn("--models: {}: {}; not served", path, file.error().describe());
    return {};
  }
  const gguf::Metadata& metadata = file->metadata();
  if (metadata.get_or<std::string>("general.type", "model") == "adapter") {
    spdlog::info("--models: {} is an adapter; not served as a model", path);
    return {};
  }
  CatalogEntry entry;
  entry.name = fs::path(path).stem().string();
  entry.path = fs::canonical(path).string();
  entry.file_bytes = file->file_size();
  entry.architecture = std::string(metadata.architecture());
  const std::string context_key = entry.architecture + ".context_length";
  entry.context_length = metadata.get_or<uint32_t>(context_key, 0);
  if (entry.context_length == 0) {
    entry.context_length = int64_t(metadata.get_or<uint64_t>(context_key, 0));
  }
  if (const CatalogEntry* other = find(entry.name)) {
    return invalid_argument("two models are named " + entry.name + ": " + other->path + " and " +
                            entry.path + " (rename one)");
  }
  entries_.push_back(std::move(entry));
  return {};
}

const CatalogEntry* ModelCatalog::find(const std::string& name) const {
  for (const CatalogEntry& entry : entries_) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

}  // namespace ingot::server
