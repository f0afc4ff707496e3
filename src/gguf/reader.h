#pragma once
// Reads GGUF v2 and v3 files. The file is mapped read-only and every count,
// length and offset is checked against the file size (overflow-safe) before
// use, so a malformed file gives an Error with a one-line reason, never a
// crash. Tensor data is not touched: opening a model costs only its header.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gguf/metadata.h"
#include "kernels/element_type.h"
#include "util/mapped_file.h"
#include "util/status.h"

namespace ingot::gguf {

struct TensorInfo {
  std::string_view name;
  // Dimensions innermost first, as GGUF stores them: a weight of shape
  // [out_features][in_features] has dims {in_features, out_features}.
  std::vector<int64_t> dims;
  kernels::ElementType type;
  uint64_t offset;  // from the start of the data section
  size_t n_bytes;
  const uint8_t* data;  // into the mapped file

  int64_t element_count() const;
};

class GgufFile {
 public:
  static Result<GgufFile> open(const std::string& path);
  // Parses bytes that outlive the result (tests, fuzzing).
  static Result<GgufFile> parse(std::span<const uint8_t> bytes);

  uint32_t version() const { return version_; }
  const Metadata& metadata() const { return metadata_; }
  const std::vector<TensorInfo>& tensors() const { return tensors_; }
  const TensorInfo* find_tensor(std::string_view name) const;
  uint64_t alignment() const { return alignment_; }
  uint64_t data_offset() const { return data_offset_; }
  size_t file_size() const { return bytes_.size(); }
  std::span<const uint8_t> bytes() const { return bytes_; }
  const std::string& path() const { return file_.path(); }

 private:
  MappedFile file_;
  std::span<const uint8_t> bytes_;
  uint32_t version_ = 0;
  Metadata metadata_;
  std::vector<TensorInfo> tensors_;
  uint64_t alignment_ = 32;
  uint64_t data_offset_ = 0;
};

}  // namespace ingot::gguf
