#include "server/models/model_catalog.h"

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "gguf/reader.h"

namespace ingot::server {
namespace fs = std::filesystem;

namespace {

std::optional<FileIdentity> identity_of(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  return FileIdentity{uint64_t(info.st_dev), uint64_t(info.st_ino)};
}

}  // namespace

Status ModelCatalog::check_unchanged(const CatalogEntry& entry) {
  if (entry.listed_path.empty()) return {};  // given whole (of_entries)
  std::error_code error;
  const fs::path real = fs::canonical(entry.listed_path, error);
  const std::optional<FileIdentity> now = identity_of(entry.path);
  if (error || real.string() != entry.path || !now || now->device != entry.identity.device ||
      now->inode != entry.identity.inode) {
    return Error(ErrorKind::kPermissionDenied,
                 entry.listed_path + " is no longer the file found at start-up (" + entry.path +
                     "); restart the server to serve what is there now");
  }
  return {};
}

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
    // A link the operator placed is followed wherever it leads.
    const fs::path real = fs::canonical(it->path(), error);
    if (error) {
      spdlog::warn("--models: {} leads nowhere; not served", it->path().string());
      error.clear();
      continue;
    }
    if (!fs::is_regular_file(real)) continue;
    files.push_back(it->path().string());
  }
  if (error) return invalid_argument("--models " + dir + ": " + error.message());
  std::sort(files.begin(), files.end());
  ModelCatalog catalog;
  std::vector<std::string> adapters;
  for (const std::string& file : files) INGOT_RETURN_IF_ERROR(catalog.add(file, &adapters));
  if (catalog.entries_.empty()) return invalid_argument("--models " + dir + ": no GGUF models");
  catalog.match_adapters(adapters);
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

Status ModelCatalog::add(const std::string& path, std::vector<std::string>* adapters) {
  auto file = gguf::GgufFile::open(path);
  if (!file.ok()) {
    spdlog::warn("--models: {}: {}; not served", path, file.error().describe());
    return {};
  }
  const gguf::Metadata& metadata = file->metadata();
  if (metadata.get_or<std::string>("general.type", "model") == "adapter") {
    if (adapters != nullptr) {
      adapters->push_back(path);
    } else {
      spdlog::warn("--model {} is an adapter; give it with --lora", path);
    }
    return {};
  }
  CatalogEntry entry;
  entry.name = fs::path(path).stem().string();
  entry.path = fs::canonical(path).string();
  entry.listed_path = path;
  std::optional<FileIdentity> identity = identity_of(entry.path);
  if (!identity) return {};  // gone since it was opened
  entry.identity = *identity;
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

namespace {

// Whether every pair of the adapter has the shape of the model's
// projection it adapts: lora_a {in, rank}, lora_b {rank, out} against the
// weight's {in, out}. Headers only.
bool adapter_fits(const gguf::GgufFile& adapter, const gguf::GgufFile& model) {
  if (adapter.metadata().architecture() != model.metadata().architecture()) return false;
  bool any = false;
  for (const gguf::TensorInfo& tensor : adapter.tensors()) {
    const std::string_view name = tensor.name;
    const bool is_a = name.ends_with(".lora_a");
    if (!is_a && !name.ends_with(".lora_b")) return false;
    const gguf::TensorInfo* weight = model.find_tensor(name.substr(0, name.size() - 7));
    if (weight == nullptr || weight->dims.size() != 2 || tensor.dims.size() != 2) return false;
    const bool fits = is_a ? tensor.dims[0] == weight->dims[0] : tensor.dims[1] == weight->dims[1];
    if (!fits) return false;
    any = true;
  }
  return any;
}

}  // namespace

void ModelCatalog::match_adapters(const std::vector<std::string>& paths) {
  // Each file opened once: every adapter against every model.
  std::vector<gguf::GgufFile> adapters;
  std::vector<std::string> names;
  std::vector<bool> matched;
  for (const std::string& path : paths) {
    auto adapter = gguf::GgufFile::open(path);
    if (!adapter.ok()) continue;
    adapters.push_back(std::move(adapter).value());
    names.push_back(fs::path(path).stem().string());
    matched.push_back(false);
  }
  for (CatalogEntry& entry : entries_) {
    auto model = gguf::GgufFile::open(entry.path);
    if (!model.ok()) continue;
    for (size_t i = 0; i < adapters.size(); ++i) {
      if (!adapter_fits(adapters[i], *model)) continue;
      const bool taken = std::any_of(entry.adapters.begin(), entry.adapters.end(),
                                     [&](const CatalogAdapter& a) { return a.name == names[i]; });
      if (taken) {
        spdlog::warn("--models: {} has two adapters named {}; serving the first", entry.name,
                     names[i]);
        continue;
      }
      entry.adapters.push_back({names[i], fs::canonical(adapters[i].path()).string()});
      matched[i] = true;
    }
  }
  for (size_t i = 0; i < adapters.size(); ++i) {
    if (!matched[i])
      spdlog::warn("--models: the adapter {} fits none of the models", adapters[i].path());
  }
}

Status ModelCatalog::apply(const ModelsConfig& config) {
  for (const auto& [name, settings] : config) {
    auto entry = std::find_if(entries_.begin(), entries_.end(),
                              [&](const CatalogEntry& e) { return e.name == name; });
    if (entry == entries_.end()) {
      return invalid_argument("--models-config names " + name + ", which is not a model here");
    }
    for (const std::string& alias : settings.aliases) {
      if (find_for_request(alias) != nullptr) {
        return invalid_argument("--models-config: the alias " + alias + " of " + name +
                                " is already a model's name or alias");
      }
    }
    entry->settings = settings;
  }
  return {};
}

const CatalogEntry* ModelCatalog::find_for_request(const std::string& name) const {
  if (const CatalogEntry* entry = find(name)) return entry;
  for (const CatalogEntry& entry : entries_) {
    const auto& aliases = entry.settings.aliases;
    if (std::find(aliases.begin(), aliases.end(), name) != aliases.end()) return &entry;
  }
  for (const CatalogEntry& entry : entries_) {
    for (const CatalogAdapter& adapter : entry.adapters) {
      if (name == entry.name + ":" + adapter.name) return &entry;
    }
  }
  return nullptr;
}

const CatalogEntry* ModelCatalog::find(const std::string& name) const {
  for (const CatalogEntry& entry : entries_) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

}  // namespace ingot::server
