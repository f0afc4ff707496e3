#pragma once
// A read-only memory map of a whole file. Model weights are used straight
// from the map; the kernel pages them in on first touch, and
// release_mapped_pages gives back the pages of weights copied elsewhere.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "util/status.h"

namespace ingot {

class MappedFile {
 public:
  static Result<MappedFile> open(const std::string& path);

  MappedFile() = default;
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  const std::string& path() const { return path_; }

 private:
  void release();

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  std::string path_;
};

// Drops this process's mapping of the whole pages inside [data, data +
// bytes) of a read-only file map, after their contents were copied
// elsewhere: they stop counting toward the process's memory, and come back
// from the file (the page cache) if anything reads them again.
void release_mapped_pages(const void* data, size_t bytes);

}  // namespace ingot
