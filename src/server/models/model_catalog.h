#pragma once
// The models `serve --models DIR` (or repeated --model) offers: every GGUF
// model file found at start, named by its file name without `.gguf`. A
// request's model name is only ever looked up here, never joined to a
// path, so no name reaches a file outside the directory; files whose real
// path lies outside it (a symlink leading out) are not offered at all.

#include <cstdint>
#include <string>
#include <vector>

#include "util/status.h"

namespace ingot::server {

struct CatalogEntry {
  std::string name;
  std::string path;  // the file's real path
  uint64_t file_bytes = 0;
  std::string architecture;
  int64_t context_length = 0;  // the file's training context (0: unknown)
};

class ModelCatalog {
 public:
  // Every model file under `dir` (subfolders included); adapters and files
  // that are not GGUF models are left out with a log line. Two files of one
  // name are an error naming both.
  static Result<ModelCatalog> scan(const std::string& dir);
  // The given files, each a model.
  static Result<ModelCatalog> of_files(const std::vector<std::string>& paths);

  const std::vector<CatalogEntry>& entries() const { return entries_; }
  const CatalogEntry* find(const std::string& name) const;

 private:
  Status add(const std::string& path);

  std::vector<CatalogEntry> entries_;
};

}  // namespace ingot::server
