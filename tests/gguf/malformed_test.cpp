// A corpus of malformed GGUF files built from one small valid file:
// truncated at every offset, with counts, lengths, types, dimensions and
// offsets corrupted field by field, and with seeded random byte flips.
// Each must give an Error (or, for a harmless flip, a valid parse) and
// never a crash, a hang or a leak; the asan preset runs this suite.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gguf/reader.h"
#include "gguf/writer.h"

namespace ingot::gguf {
namespace {

using kernels::ElementType;

std::vector<uint8_t> small_valid_file() {
  GgufWriter writer;
  writer.set_string("general.architecture", "llama");
  writer.set_u32("llama.block_count", 2);
  writer.set_bool("flag", true);
  std::vector<std::string> tokens = {"<s>", "</s>", "hello", "world", "Ġthe"};
  writer.set_strings("tokens", tokens);
  std::vector<float> scores = {0.0f, -1.0f, -2.0f, -3.0f, -4.0f};
  writer.set_f32s("scores", scores);
  auto inner =
      std::make_shared<Array>(Array{ValueType::kUint16, {Value{ValueType::kUint16, uint16_t{9}}}});
  auto outer = std::make_shared<Array>(
      Array{ValueType::kArray, {Value{ValueType::kArray, std::shared_ptr<const Array>(inner)}}});
  writer.set("nested", Value{ValueType::kArray, std::shared_ptr<const Array>(outer)});
  auto fill = [](std::span<uint8_t> out) { std::fill(out.begin(), out.end(), uint8_t{0x3C}); };
  EXPECT_TRUE(writer.add_tensor("aaaa", {8, 2}, ElementType::kF32, fill).ok());
  EXPECT_TRUE(writer.add_tensor("bbbb", {32, 2}, ElementType::kQ8_0, fill).ok());
  EXPECT_TRUE(writer.add_tensor("cccc", {5}, ElementType::kF16, fill).ok());
  return writer.to_bytes().value();
}

// Where `text` ends in the file: the field after a key or tensor name.
size_t offset_after(const std::vector<uint8_t>& bytes, std::string_view text) {
  auto it = std::search(bytes.begin(), bytes.end(), text.begin(), text.end());
  EXPECT_NE(it, bytes.end()) << text;
  return static_cast<size_t>(it - bytes.begin()) + text.size();
}

template <typename T>
std::vector<uint8_t> with_field(std::vector<uint8_t> bytes, size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof(T));
  return bytes;
}

// Callers pass fresh copies, whose heap blocks are exactly their size, so
// ASan sees any read past the end. A file that parses must have its
// tensors inside it.
Result<GgufFile> parse_copy(const std::vector<uint8_t>& bytes) {
  auto file = GgufFile::parse(bytes);
  if (file.ok()) {
    for (const TensorInfo& tensor : file->tensors()) {
      EXPECT_GE(tensor.data, bytes.data());
      EXPECT_LE(tensor.data + tensor.n_bytes, bytes.data() + bytes.size());
    }
  }
  return file;
}

void expect_error(const std::vector<uint8_t>& bytes, std::string_view reason) {
  auto file = parse_copy(bytes);
  ASSERT_FALSE(file.ok()) << "expected an error mentioning: " << reason;
  EXPECT_NE(file.error().describe().find(reason), std::string::npos) << file.error().describe();
  EXPECT_EQ(file.error().describe().find('\n'), std::string::npos);
}

class Malformed : public ::testing::Test {
 protected:
  std::vector<uint8_t> valid_ = small_valid_file();
  // The end of the last tensor's bytes: any truncation before it is an error.
  size_t end_of_data() const {
    auto file = GgufFile::parse(valid_).value();
    const TensorInfo& last = file.tensors().back();
    return file.data_offset() + last.offset + last.n_bytes;
  }
  size_t tensor_field(std::string_view name, size_t dims, size_t field_after_dims) const {
    return offset_after(valid_, name) + 4 + 8 * dims + field_after_dims;
  }
};

TEST_F(Malformed, TheBaseFileIsValid) {
  auto file = parse_copy(valid_);
  ASSERT_TRUE(file.ok()) << file.error().describe();
  EXPECT_EQ(file->tensors().size(), 3u);
}

TEST_F(Malformed, TruncationAtEveryOffsetIsAnError) {
  size_t must_fail_below = end_of_data();
  for (size_t length = 0; length < valid_.size(); ++length) {
    std::vector<uint8_t> truncated(valid_.begin(), valid_.begin() + length);
    auto file = parse_copy(truncated);
    if (length < must_fail_below) {
      EXPECT_FALSE(file.ok()) << "truncated to " << length << " bytes";
    }
  }
}

TEST_F(Malformed, HugeHeaderCounts) {
  expect_error(with_field<uint64_t>(valid_, 8, uint64_t{1} << 60), "tensor count");
  expect_error(with_field<uint64_t>(valid_, 16, ~uint64_t{0}), "metadata count");
  expect_error(with_field<uint64_t>(valid_, 16, 100), "");
}

TEST_F(Malformed, BadStringLengths) {
  expect_error(with_field<uint64_t>(valid_, 24, ~uint64_t{0}), "runs past the end");
  size_t architecture_value = offset_after(valid_, "general.architecture") + 4;
  expect_error(with_field<uint64_t>(valid_, architecture_value, uint64_t{1} << 40),
               "runs past the end");
  size_t tensor_name = offset_after(valid_, "aaaa") - 4 - 8;
  expect_error(with_field<uint64_t>(valid_, tensor_name, valid_.size()), "runs past the end");
}

TEST_F(Malformed, HugeArrayCounts) {
  size_t tokens_count = offset_after(valid_, "tokens") + 4 + 4;
  expect_error(with_field<uint64_t>(valid_, tokens_count, uint64_t{1} << 61), "larger than");
  expect_error(with_field<uint64_t>(valid_, tokens_count, valid_.size()), "larger than");
  size_t scores_count = offset_after(valid_, "scores") + 4 + 4;
  expect_error(with_field<uint64_t>(valid_, scores_count, ~uint64_t{0}), "larger than");
}

TEST_F(Malformed, UnknownValueTypes) {
  size_t flag_type = offset_after(valid_, "flag");
  expect_error(with_field<uint32_t>(valid_, flag_type, 13), "unknown value type 13");
  expect_error(with_field<uint32_t>(valid_, flag_type, 0xFFFFFFFF), "unknown value type");
  size_t tokens_element = offset_after(valid_, "tokens") + 4;
  expect_error(with_field<uint32_t>(valid_, tokens_element, 77), "unknown array element type 77");
  expect_error(with_field<uint8_t>(valid_, flag_type + 4, 2), "bool value 2");
}

TEST_F(Malformed, UnknownTensorTypes) {
  for (uint32_t id : {4u, 5u, 31u, 99u, 0xFFFFFFFFu}) {
    expect_error(with_field<uint32_t>(valid_, tensor_field("aaaa", 2, 0), id),
                 "unknown tensor type id");
  }
}

TEST_F(Malformed, BadDimensions) {
  size_t n_dims = offset_after(valid_, "aaaa");
  expect_error(with_field<uint32_t>(valid_, n_dims, 0), "0 dimensions");
  expect_error(with_field<uint32_t>(valid_, n_dims, 5), "5 dimensions");
  expect_error(with_field<uint32_t>(valid_, n_dims, 0xFFFFFFFF), "dimensions");
  expect_error(with_field<uint64_t>(valid_, n_dims + 4, 0), "must be positive");
  expect_error(with_field<uint64_t>(valid_, n_dims + 4, ~uint64_t{0}), "must be positive");
  auto overflowing = with_field<uint64_t>(valid_, n_dims + 4, uint64_t{1} << 40);
  expect_error(with_field<uint64_t>(overflowing, n_dims + 12, uint64_t{1} << 40), "overflows");
  size_t q8_row = offset_after(valid_, "bbbb") + 4;
  expect_error(with_field<uint64_t>(valid_, q8_row, 33), "not a whole number of q8_0 blocks");
}

TEST_F(Malformed, BadTensorOffsets) {
  size_t b_offset = tensor_field("bbbb", 2, 4);
  uint64_t b_value;
  std::memcpy(&b_value, valid_.data() + b_offset, 8);
  expect_error(with_field<uint64_t>(valid_, b_offset, b_value + 1), "not a multiple");
  expect_error(with_field<uint64_t>(valid_, b_offset, 0), "overlap");
  expect_error(with_field<uint64_t>(valid_, b_offset, b_value + 4096), "past the end");
  expect_error(with_field<uint64_t>(valid_, b_offset, ~uint64_t{0} - 31), "past the end");
}

TEST_F(Malformed, DuplicateTensorNames) {
  auto renamed = valid_;
  size_t at = offset_after(renamed, "bbbb") - 4;
  std::memcpy(renamed.data() + at, "aaaa", 4);
  expect_error(renamed, "duplicate tensor name 'aaaa'");
}

TEST_F(Malformed, ArraysNestedTooDeep) {
  GgufWriter writer;
  Value value{ValueType::kInt32, int32_t{1}};
  for (int depth = 0; depth < 50; ++depth) {
    auto array = std::make_shared<Array>(Array{ValueType(value.storage.index()), {value}});
    value = Value{ValueType::kArray, std::shared_ptr<const Array>(array)};
  }
  writer.set("deep", value);
  expect_error(writer.to_bytes().value(), "nested deeper");
}

TEST_F(Malformed, SeededRandomByteFlipsNeverCrash) {
  std::mt19937 rng(20240601);
  size_t errors = 0;
  constexpr int kRounds = 4000;
  for (int round = 0; round < kRounds; ++round) {
    std::vector<uint8_t> bytes = valid_;
    int flips = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < flips; ++i) bytes[rng() % bytes.size()] = static_cast<uint8_t>(rng());
    errors += !parse_copy(bytes).ok();
  }
  // Most flips land in headers, counts and names that matter; some land in
  // tensor data, which no reader can tell from valid bytes.
  EXPECT_GT(errors, 0u);
  EXPECT_LT(errors, static_cast<size_t>(kRounds));
}

}  // namespace
}  // namespace ingot::gguf
