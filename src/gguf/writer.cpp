#include "gguf/writer.h"

#include <fmt/format.h>

#include <bit>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

namespace ingot::gguf {
namespace {

constexpr uint32_t kVersion = 3;
constexpr uint64_t kDefaultAlignment = 32;

uint64_t align_up(uint64_t offset, uint64_t alignment) {
  return (offset + alignment - 1) / alignment * alignment;
}

// Appends GGUF's little-endian encodings to a buffer.
class Encoder {
 public:
  explicit Encoder(std::vector<uint8_t>& out) : out_(out) {}

  template <typename T>
  void put(T value) {
    put_raw(&value, sizeof(T));
  }

  void put_string(std::string_view text) {
    put<uint64_t>(text.size());
    put_raw(text.data(), text.size());
  }

  // The payload of a value, without its type id. The variant's alternatives
  // are declared in the order of GGUF's type ids, so the index is the id.
  Status put_payload(const Value& value) {
    if (const auto* array = std::get_if<std::shared_ptr<const Array>>(&value.storage)) {
      return put_array(**array);
    }
    std::visit(
        [this](const auto& stored) {
          using S = std::decay_t<decltype(stored)>;
          if constexpr (std::is_same_v<S, std::string_view>) {
            put_string(stored);
          } else if constexpr (std::is_same_v<S, bool>) {
            put<uint8_t>(stored ? 1 : 0);
          } else if constexpr (!std::is_same_v<S, std::shared_ptr<const Array>>) {
            put(stored);
          }
        },
        value.storage);
    return {};
  }

 private:
  Status put_array(const Array& array) {
    put<uint32_t>(static_cast<uint32_t>(array.element_type));
    put<uint64_t>(array.items.size());
    for (const Value& item : array.items) {
      if (item.storage.index() != static_cast<size_t>(array.element_type)) {
        return invalid_argument(fmt::format("an array of {} holds a {}",
                                            value_type_name(array.element_type),
                                            value_type_name(ValueType(item.storage.index()))));
      }
      INGOT_RETURN_IF_ERROR(put_payload(item));
    }
    return {};
  }

  // resize + memcpy rather than insert: GCC 12 at -O3 warns falsely
  // (-Wstringop-overflow) on inserting a range into a vector.
  void put_raw(const void* data, size_t size) {
    size_t at = out_.size();
    out_.resize(at + size);
    if (size != 0) std::memcpy(out_.data() + at, data, size);
  }

  std::vector<uint8_t>& out_;
};

Result<size_t> tensor_size(std::string_view name, const std::vector<int64_t>& dims,
                           kernels::ElementType type) {
  auto fail = [&](const std::string& why) {
    return invalid_argument(fmt::format("tensor '{}': {}", name, why));
  };
  if (dims.empty() || dims.size() > 4) return fail("must have 1 to 4 dimensions");
  std::optional<size_t> size = kernels::row_bytes(type, dims[0]);
  if (dims[0] <= 0 || !size) {
    return fail(fmt::format("a row of {} is not a whole number of {} blocks", dims[0],
                            kernels::element_type_name(type)));
  }
  for (size_t d = 1; d < dims.size(); ++d) {
    if (dims[d] <= 0) return fail("dimensions must be positive");
    if (__builtin_mul_overflow(*size, static_cast<size_t>(dims[d]), &*size)) {
      return fail("its size overflows");
    }
  }
  return *size;
}

class FileCloser {
 public:
  explicit FileCloser(std::FILE* file) : file_(file) {}
  ~FileCloser() {
    if (file_ != nullptr) std::fclose(file_);
  }
  std::FILE* get() const { return file_; }
  bool close() { return std::fclose(std::exchange(file_, nullptr)) == 0; }

 private:
  std::FILE* file_;
};

}  // namespace

std::string_view GgufWriter::intern(std::string_view text) {
  return strings_.emplace_back(text);
}

Value GgufWriter::copy_value(const Value& value) {
  auto type = static_cast<ValueType>(value.storage.index());
  if (const auto* text = std::get_if<std::string_view>(&value.storage)) {
    return Value{type, intern(*text)};
  }
  if (const auto* array = std::get_if<std::shared_ptr<const Array>>(&value.storage)) {
    auto copy = std::make_shared<Array>();
    copy->element_type = (*array)->element_type;
    copy->items.reserve((*array)->items.size());
    for (const Value& item : (*array)->items) copy->items.push_back(copy_value(item));
    return Value{type, std::shared_ptr<const Array>(std::move(copy))};
  }
  return Value{type, value.storage};
}

void GgufWriter::set(std::string_view key, const Value& value) {
  Value copy = copy_value(value);
  for (auto& [existing, stored] : entries_) {
    if (existing == key) {
      stored = std::move(copy);
      return;
    }
  }
  entries_.emplace_back(intern(key), std::move(copy));
}

bool GgufWriter::has(std::string_view key) const {
  for (const auto& entry : entries_) {
    if (entry.first == key) return true;
  }
  return false;
}

void GgufWriter::set_string(std::string_view key, std::string_view text) {
  set(key, Value{ValueType::kString, text});
}

void GgufWriter::set_strings(std::string_view key, std::span<const std::string_view> texts) {
  auto array = std::make_shared<Array>();
  array->element_type = ValueType::kString;
  array->items.reserve(texts.size());
  for (std::string_view text : texts) array->items.push_back(Value{ValueType::kString, text});
  set(key, Value{ValueType::kArray, std::shared_ptr<const Array>(std::move(array))});
}

void GgufWriter::set_strings(std::string_view key, std::span<const std::string> texts) {
  std::vector<std::string_view> views(texts.begin(), texts.end());
  set_strings(key, std::span<const std::string_view>(views));
}

void GgufWriter::set_f32s(std::string_view key, std::span<const float> values) {
  auto array = std::make_shared<Array>();
  array->element_type = ValueType::kFloat32;
  for (float value : values) array->items.push_back(Value{ValueType::kFloat32, value});
  set(key, Value{ValueType::kArray, std::shared_ptr<const Array>(std::move(array))});
}

void GgufWriter::set_bools(std::string_view key, const std::vector<bool>& values) {
  auto array = std::make_shared<Array>();
  array->element_type = ValueType::kBool;
  for (bool value : values) array->items.push_back(Value{ValueType::kBool, value});
  set(key, Value{ValueType::kArray, std::shared_ptr<const Array>(std::move(array))});
}

void GgufWriter::set_i32s(std::string_view key, std::span<const int32_t> values) {
  auto array = std::make_shared<Array>();
  array->element_type = ValueType::kInt32;
  for (int32_t value : values) array->items.push_back(Value{ValueType::kInt32, value});
  set(key, Value{ValueType::kArray, std::shared_ptr<const Array>(std::move(array))});
}

Status GgufWriter::add_tensor(std::string_view name, std::vector<int64_t> dims,
                              kernels::ElementType type, std::vector<uint8_t> bytes) {
  INGOT_ASSIGN_OR_RETURN(size_t size, tensor_size(name, dims, type));
  if (bytes.size() != size) {
    return invalid_argument(
        fmt::format("tensor '{}': {} bytes given, its shape needs {}", name, bytes.size(), size));
  }
  auto shared = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
  return add_tensor(name, std::move(dims), type, [shared](std::span<uint8_t> out) {
    std::copy(shared->begin(), shared->end(), out.begin());
  });
}

Status GgufWriter::add_tensor(std::string_view name, std::vector<int64_t> dims,
                              kernels::ElementType type, Filler filler) {
  for (const Tensor& tensor : tensors_) {
    if (tensor.name == name) return invalid_argument(fmt::format("duplicate tensor '{}'", name));
  }
  INGOT_ASSIGN_OR_RETURN(size_t size, tensor_size(name, dims, type));
  tensors_.push_back(Tensor{intern(name), std::move(dims), type, size, std::move(filler)});
  return {};
}

Result<uint64_t> GgufWriter::alignment() const {
  for (const auto& [key, value] : entries_) {
    if (key != "general.alignment") continue;
    const auto* alignment = std::get_if<uint32_t>(&value.storage);
    if (alignment == nullptr || !std::has_single_bit(*alignment)) {
      return invalid_argument("general.alignment must be a uint32 power of two");
    }
    return uint64_t{*alignment};
  }
  return kDefaultAlignment;
}

Result<std::vector<uint8_t>> GgufWriter::header_bytes(uint64_t alignment) const {
  std::vector<uint8_t> out;
  Encoder encoder(out);
  encoder.put<uint32_t>(kGgufMagic);
  encoder.put<uint32_t>(kVersion);
  encoder.put<uint64_t>(tensors_.size());
  encoder.put<uint64_t>(entries_.size());
  for (const auto& [key, value] : entries_) {
    encoder.put_string(key);
    encoder.put<uint32_t>(static_cast<uint32_t>(value.storage.index()));
    Status status = encoder.put_payload(value);
    if (!status.ok()) return status.error().add_context(fmt::format("writing key '{}'", key));
  }
  uint64_t offset = 0;
  for (const Tensor& tensor : tensors_) {
    encoder.put_string(tensor.name);
    encoder.put<uint32_t>(static_cast<uint32_t>(tensor.dims.size()));
    for (int64_t dim : tensor.dims) encoder.put<uint64_t>(static_cast<uint64_t>(dim));
    encoder.put<uint32_t>(static_cast<uint32_t>(tensor.type));
    encoder.put<uint64_t>(offset);
    offset = align_up(offset + tensor.n_bytes, alignment);
  }
  out.resize(align_up(out.size(), alignment), 0);
  return out;
}

Result<std::vector<uint8_t>> GgufWriter::to_bytes() const {
  INGOT_ASSIGN_OR_RETURN(uint64_t align, alignment());
  INGOT_ASSIGN_OR_RETURN(std::vector<uint8_t> out, header_bytes(align));
  for (const Tensor& tensor : tensors_) {
    size_t start = out.size();
    out.resize(start + tensor.n_bytes);
    tensor.filler(std::span<uint8_t>(out.data() + start, tensor.n_bytes));
    out.resize(align_up(out.size(), align), 0);
  }
  return out;
}

Status GgufWriter::write(const std::string& path) const {
  INGOT_ASSIGN_OR_RETURN(uint64_t align, alignment());
  INGOT_ASSIGN_OR_RETURN(std::vector<uint8_t> header, header_bytes(align));
  FileCloser file(std::fopen(path.c_str(), "wb"));
  auto io_failure = [&path](const char* what) {
    std::remove(path.c_str());
    return Error(ErrorKind::kIo, fmt::format("{}: cannot {}", path, what));
  };
  if (file.get() == nullptr) return Error(ErrorKind::kIo, fmt::format("{}: cannot create", path));
  auto put = [&file](std::span<const uint8_t> bytes) {
    return std::fwrite(bytes.data(), 1, bytes.size(), file.get()) == bytes.size();
  };
  if (!put(header)) return io_failure("write");
  std::vector<uint8_t> buffer;
  for (const Tensor& tensor : tensors_) {
    buffer.assign(align_up(tensor.n_bytes, align), 0);
    tensor.filler(std::span<uint8_t>(buffer.data(), tensor.n_bytes));
    if (!put(buffer)) return io_failure("write");
  }
  if (!file.close()) return io_failure("close");
  return {};
}

}  // namespace ingot::gguf
