#include "gguf/reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <numeric>
#include <string>
#include <unordered_set>
#include <utility>

#include "gguf/byte_reader.h"

namespace ingot::gguf {
namespace {

constexpr uint32_t kMaxDims = 4;  // ggml's limit; llama.cpp refuses more
// Real files nest arrays at most one level deep; the limit keeps a crafted
// file from recursing the parser off its stack.
constexpr int kMaxArrayDepth = 8;
// Smallest encodings, used to refuse a count that the bytes left could not
// hold before anything is allocated for it.
constexpr uint64_t kMinKeyValueBytes = 8 + 4 + 1;            // key length, type, uint8
constexpr uint64_t kMinTensorInfoBytes = 8 + 4 + 8 + 4 + 8;  // name, n_dims, 1 dim, type, offset

std::string quoted(std::string_view text) {
  return fmt::format("'{}'", text);
}

uint64_t encoded_size_at_least(ValueType type) {
  switch (type) {
    case ValueType::kUint8:
    case ValueType::kInt8:
    case ValueType::kBool:
      return 1;
    case ValueType::kUint16:
    case ValueType::kInt16:
      return 2;
    case ValueType::kUint32:
    case ValueType::kInt32:
    case ValueType::kFloat32:
      return 4;
    case ValueType::kString:
    case ValueType::kUint64:
    case ValueType::kInt64:
    case ValueType::kFloat64:
      return 8;
    case ValueType::kArray:
      return 4 + 8;
  }
  return 1;
}

struct Header {
  uint32_t version = 0;
  uint64_t n_tensors = 0;
  uint64_t n_key_values = 0;
};

// Walks the header, metadata and tensor table in file order. Tensor extents
// are checked afterwards, once the alignment and data offset are known.
class Parser {
 public:
  explicit Parser(std::span<const uint8_t> bytes) : in_(bytes) {}

  size_t position() const { return in_.position(); }

  Result<Header> header() {
    auto magic = in_.read<uint32_t>();
    if (!magic || *magic != kGgufMagic) {
      return invalid_format("not a GGUF file: it does not start with \"GGUF\"");
    }
    auto version = in_.read<uint32_t>();
    if (!version) return truncated("the version");
    INGOT_RETURN_IF_ERROR(check_version(*version));
    Header header{*version};
    auto n_tensors = in_.read<uint64_t>();
    auto n_key_values = in_.read<uint64_t>();
    if (!n_tensors || !n_key_values) return truncated("the header counts");
    header.n_tensors = *n_tensors;
    header.n_key_values = *n_key_values;
    if (header.n_key_values > in_.remaining() / kMinKeyValueBytes) {
      return invalid_format("metadata count " + std::to_string(header.n_key_values) +
                            " is larger than the file could hold");
    }
    if (header.n_tensors > in_.remaining() / kMinTensorInfoBytes) {
      return invalid_format("tensor count " + std::to_string(header.n_tensors) +
                            " is larger than the file could hold");
    }
    return header;
  }

  Status metadata(uint64_t count, Metadata& out) {
    for (uint64_t i = 0; i < count; ++i) {
      INGOT_ASSIGN_OR_RETURN(std::string_view key, string("a metadata key"));
      auto type_id = in_.read<uint32_t>();
      if (!type_id) return truncated("the type of metadata key " + quoted(key));
      auto value = value_of_type(*type_id, 0);
      if (!value.ok()) {
        return invalid_format("metadata key " + quoted(key) + ": " + value.error().message());
      }
      if (!out.add(key, std::move(value).value())) {
        return invalid_format("duplicate metadata key " + quoted(key));
      }
    }
    return {};
  }

  Status tensor_infos(uint64_t count, std::vector<TensorInfo>& out) {
    out.reserve(count);
    std::unordered_set<std::string_view> names;
    for (uint64_t i = 0; i < count; ++i) {
      INGOT_ASSIGN_OR_RETURN(TensorInfo info, tensor_info());
      if (!names.insert(info.name).second) {
        return invalid_format("duplicate tensor name " + quoted(info.name));
      }
      out.push_back(std::move(info));
    }
    return {};
  }

 private:
  static Status check_version(uint32_t version) {
    if (version == 2 || version == 3) return {};
    if (version == 1) return unsupported("GGUF version 1 is not supported (only versions 2 and 3)");
    uint32_t swapped = __builtin_bswap32(version);
    if (swapped == 2 || swapped == 3) return unsupported("big-endian GGUF files are not supported");
    return unsupported("unknown GGUF version " + std::to_string(version));
  }

  Error truncated(const std::string& what) const {
    return invalid_format("file ends inside " + what + " (at byte " +
                          std::to_string(in_.position()) + ")");
  }

  Result<std::string_view> string(const std::string& what) {
    auto length = in_.read<uint64_t>();
    if (!length) return truncated(what);
    if (*length > in_.remaining()) {
      return invalid_format("length " + std::to_string(*length) + " of " + what +
                            " runs past the end of the file");
    }
    return *in_.read_bytes(*length);
  }

  Result<Value> value_of_type(uint32_t type_id, int depth) {
    std::optional<ValueType> type = value_type_from_id(type_id);
    if (!type) return invalid_format("unknown value type " + std::to_string(type_id));
    switch (*type) {
      case ValueType::kUint8:
        return scalar<uint8_t>(*type);
      case ValueType::kInt8:
        return scalar<int8_t>(*type);
      case ValueType::kUint16:
        return scalar<uint16_t>(*type);
      case ValueType::kInt16:
        return scalar<int16_t>(*type);
      case ValueType::kUint32:
        return scalar<uint32_t>(*type);
      case ValueType::kInt32:
        return scalar<int32_t>(*type);
      case ValueType::kFloat32:
        return scalar<float>(*type);
      case ValueType::kUint64:
        return scalar<uint64_t>(*type);
      case ValueType::kInt64:
        return scalar<int64_t>(*type);
      case ValueType::kFloat64:
        return scalar<double>(*type);
      case ValueType::kBool:
        return boolean();
      case ValueType::kString: {
        INGOT_ASSIGN_OR_RETURN(std::string_view text, string("a string value"));
        return Value{*type, text};
      }
      case ValueType::kArray:
        return array(depth + 1);
    }
    return invalid_format("unknown value type " + std::to_string(type_id));
  }

  template <typename T>
  Result<Value> scalar(ValueType type) {
    auto value = in_.read<T>();
    if (!value) return truncated("a " + std::string(value_type_name(type)) + " value");
    return Value{type, *value};
  }

  Result<Value> boolean() {
    auto byte = in_.read<uint8_t>();
    if (!byte) return truncated("a bool value");
    if (*byte > 1) return invalid_format("bool value " + std::to_string(*byte) + " is not 0 or 1");
    return Value{ValueType::kBool, *byte == 1};
  }

  Result<Value> array(int depth) {
    if (depth > kMaxArrayDepth) {
      return invalid_format("arrays nested deeper than " + std::to_string(kMaxArrayDepth));
    }
    auto element_id = in_.read<uint32_t>();
    auto count = in_.read<uint64_t>();
    if (!element_id || !count) return truncated("an array header");
    std::optional<ValueType> element_type = value_type_from_id(*element_id);
    if (!element_type)
      return invalid_format("unknown array element type " + std::to_string(*element_id));
    if (*count > in_.remaining() / encoded_size_at_least(*element_type)) {
      return invalid_format("array of " + std::to_string(*count) + " " +
                            std::string(value_type_name(*element_type)) +
                            " is larger than the bytes left in the file");
    }
    auto result = std::make_shared<Array>();
    result->element_type = *element_type;
    result->items.reserve(*count);
    for (uint64_t i = 0; i < *count; ++i) {
      INGOT_ASSIGN_OR_RETURN(Value item, value_of_type(*element_id, depth));
      result->items.push_back(std::move(item));
    }
    return Value{ValueType::kArray, std::shared_ptr<const Array>(std::move(result))};
  }

  Result<TensorInfo> tensor_info() {
    INGOT_ASSIGN_OR_RETURN(std::string_view name, string("a tensor name"));
    auto described = tensor_shape_and_type(name);
    if (!described.ok()) {
      return invalid_format("tensor " + quoted(name) + ": " + described.error().message());
    }
    return std::move(described).value();
  }

  Result<TensorInfo> tensor_shape_and_type(std::string_view name) {
    TensorInfo info{name, {}, kernels::ElementType::kF32, 0, 0, nullptr};
    auto n_dims = in_.read<uint32_t>();
    if (!n_dims) return truncated("its dimension count");
    if (*n_dims == 0 || *n_dims > kMaxDims) {
      return invalid_format(std::to_string(*n_dims) + " dimensions (must be 1 to 4)");
    }
    for (uint32_t d = 0; d < *n_dims; ++d) {
      auto dim = in_.read<uint64_t>();
      if (!dim) return truncated("its dimensions");
      if (*dim == 0 || *dim > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return invalid_format("dimension " + std::to_string(d) + " is " +
                              std::to_string(static_cast<int64_t>(*dim)) + " (must be positive)");
      }
      info.dims.push_back(static_cast<int64_t>(*dim));
    }
    auto type_id = in_.read<uint32_t>();
    auto offset = in_.read<uint64_t>();
    if (!type_id || !offset) return truncated("its type and offset");
    std::optional<kernels::ElementType> type = kernels::element_type_from_id(*type_id);
    if (!type) return invalid_format("unknown tensor type id " + std::to_string(*type_id));
    info.type = *type;
    info.offset = *offset;
    INGOT_ASSIGN_OR_RETURN(info.n_bytes, tensor_bytes(info));
    return info;
  }

  static Result<size_t> tensor_bytes(const TensorInfo& info) {
    const auto& type = kernels::element_type_info(info.type);
    std::optional<size_t> row = kernels::row_bytes(info.type, info.dims[0]);
    if (!row) {
      return invalid_format("a row of " + std::to_string(info.dims[0]) +
                            " elements is not a whole number of " + std::string(type.name) +
                            " blocks of " + std::to_string(type.block_size));
    }
    int64_t elements = info.dims[0];
    size_t total = *row;
    for (size_t d = 1; d < info.dims.size(); ++d) {
      if (__builtin_mul_overflow(elements, info.dims[d], &elements) ||
          __builtin_mul_overflow(total, static_cast<size_t>(info.dims[d]), &total)) {
        return invalid_format("its size overflows");
      }
    }
    return total;
  }

  ByteReader in_;
};

Result<uint64_t> alignment_of(const Metadata& metadata) {
  if (!metadata.has("general.alignment")) return uint64_t{32};
  auto alignment = metadata.get<uint64_t>("general.alignment");
  if (!alignment.ok()) return alignment.error();
  if (!std::has_single_bit(*alignment)) {
    return invalid_format("general.alignment " + std::to_string(*alignment) +
                          " is not a power of two");
  }
  return *alignment;
}

// Places every tensor in the data section: aligned, inside the file, and
// not overlapping another.
Status place_tensors(std::span<const uint8_t> bytes, uint64_t data_offset, uint64_t alignment,
                     std::vector<TensorInfo>& tensors) {
  if (tensors.empty()) return {};
  if (data_offset > bytes.size())
    return invalid_format("the data section starts past the end of the file");
  uint64_t data_size = bytes.size() - data_offset;
  for (TensorInfo& tensor : tensors) {
    if (tensor.offset % alignment != 0) {
      return invalid_format("tensor " + quoted(tensor.name) + ": offset " +
                            std::to_string(tensor.offset) + " is not a multiple of the alignment " +
                            std::to_string(alignment));
    }
    if (tensor.offset > data_size || tensor.n_bytes > data_size - tensor.offset) {
      return invalid_format("tensor " + quoted(tensor.name) + ": its " +
                            std::to_string(tensor.n_bytes) + " bytes at offset " +
                            std::to_string(tensor.offset) + " run past the end of the file");
    }
    tensor.data = bytes.data() + data_offset + tensor.offset;
  }
  std::vector<const TensorInfo*> by_offset;
  for (const TensorInfo& tensor : tensors) by_offset.push_back(&tensor);
  std::sort(by_offset.begin(), by_offset.end(),
            [](const TensorInfo* a, const TensorInfo* b) { return a->offset < b->offset; });
  for (size_t i = 1; i < by_offset.size(); ++i) {
    const TensorInfo& before = *by_offset[i - 1];
    if (before.offset + before.n_bytes > by_offset[i]->offset) {
      return invalid_format("tensors " + quoted(before.name) + " and " +
                            quoted(by_offset[i]->name) + " overlap");
    }
  }
  return {};
}

}  // namespace

int64_t TensorInfo::element_count() const {
  return std::accumulate(dims.begin(), dims.end(), int64_t{1}, std::multiplies<>());
}

Result<GgufFile> GgufFile::open(const std::string& path) {
  auto mapped = MappedFile::open(path);
  if (!mapped.ok()) return mapped.error();
  auto parsed = parse(mapped->bytes());
  if (!parsed.ok()) {
    Error error = std::move(parsed.error());
    error.add_context("while reading " + path);
    return error;
  }
  // The map's address survives the move, so every view into it stays valid.
  parsed->file_ = std::move(mapped).value();
  return parsed;
}

Result<GgufFile> GgufFile::parse(std::span<const uint8_t> bytes) {
  GgufFile file;
  file.bytes_ = bytes;
  Parser parser(bytes);
  INGOT_ASSIGN_OR_RETURN(Header header, parser.header());
  file.version_ = header.version;
  INGOT_RETURN_IF_ERROR(parser.metadata(header.n_key_values, file.metadata_));
  INGOT_RETURN_IF_ERROR(parser.tensor_infos(header.n_tensors, file.tensors_));
  INGOT_ASSIGN_OR_RETURN(file.alignment_, alignment_of(file.metadata_));
  uint64_t end_of_table = parser.position();
  if (end_of_table > std::numeric_limits<uint64_t>::max() - (file.alignment_ - 1)) {
    return invalid_format("the data section offset overflows");
  }
  file.data_offset_ = (end_of_table + file.alignment_ - 1) / file.alignment_ * file.alignment_;
  INGOT_RETURN_IF_ERROR(place_tensors(bytes, file.data_offset_, file.alignment_, file.tensors_));
  return file;
}

const TensorInfo* GgufFile::find_tensor(std::string_view name) const {
  for (const TensorInfo& tensor : tensors_) {
    if (tensor.name == name) return &tensor;
  }
  return nullptr;
}

}  // namespace ingot::gguf
