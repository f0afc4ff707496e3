#pragma once
// The models `serve --models DIR` (or repeated --model) offers: every GGUF
// model file found at start, named by its file name without `.gguf`, and
// every LoRA adapter in DIR that fits one, named `MODEL:ADAPTER` (the
// adapter's file name without `.gguf`) for each model it fits. A
// request's model name is only ever looked up here, never joined to a
// path, so no name reaches a file the operator did not place. A link the
// operator placed (into a download cache, say) is followed once, at start;
// at load the file must still be the one found then (the link leading to
// the same path, the same file there), so a link swapped in later opens
// nothing.

#include <cstdint>
#include <string>
#include <vector>

#include "server/models/models_config.h"
#include "util/status.h"

namespace ingot::server {

struct CatalogAdapter {
  std::string name;  // the file name without .gguf
  std::string path;
};

// Which file a path held when the catalogue was made.
struct FileIdentity {
  uint64_t device = 0;
  uint64_t inode = 0;
};

struct CatalogEntry {
  std::string name;
  std::vector<CatalogAdapter> adapters;  // those that fit the model
  std::string path;                      // the file's real path
  std::string listed_path;               // where it was found (a link, maybe)
  FileIdentity identity;                 // of the real path, at start
  uint64_t file_bytes = 0;
  std::string architecture;
  int64_t context_length = 0;  // the file's training context (0: unknown)
  ModelSettings settings;      // --models-config's
};

class ModelCatalog {
 public:
  // Every model file under `dir` (subfolders included); adapters and files
  // that are not GGUF models are left out with a log line. Two files of one
  // name are an error naming both.
  static Result<ModelCatalog> scan(const std::string& dir);
  // The given files, each a model.
  static Result<ModelCatalog> of_files(const std::vector<std::string>& paths);
  // The entries as given, read from no file (what the registry's tests load).
  static ModelCatalog of_entries(std::vector<CatalogEntry> entries) {
    ModelCatalog catalog;
    catalog.entries_ = std::move(entries);
    return catalog;
  }

  const std::vector<CatalogEntry>& entries() const { return entries_; }
  const CatalogEntry* find(const std::string& name) const;
  // The model a request's name runs on: the model itself by its name or an
  // alias, or the model of one of its adapters (`MODEL:ADAPTER`).
  const CatalogEntry* find_for_request(const std::string& name) const;
  // Whether the entry's file is still the one the catalogue found: an
  // error (for the log, naming paths) when its link or file changed.
  static Status check_unchanged(const CatalogEntry& entry);
  // --models-config: each model's settings; a model the catalogue lacks,
  // or an alias that is another model's name or alias, is an error.
  Status apply(const ModelsConfig& config);

 private:
  // Adds the file's model, or keeps its adapter aside for match_adapters.
  Status add(const std::string& path, std::vector<std::string>* adapters = nullptr);
  void match_adapters(const std::vector<std::string>& paths);

  std::vector<CatalogEntry> entries_;
};

}  // namespace ingot::server
