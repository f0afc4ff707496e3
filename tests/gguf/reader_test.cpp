// The reader on small hand-built headers: what it accepts and the one-line
// reason it gives for what it refuses.

#include "gguf/reader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace ingot::gguf {
namespace {

// Appends little-endian fields to a byte buffer.
class Bytes {
 public:
  template <typename T>
  Bytes& put(T value) {
    const auto* raw = reinterpret_cast<const uint8_t*>(&value);
    bytes_.insert(bytes_.end(), raw, raw + sizeof(T));
    return *this;
  }
  Bytes& put_string(std::string_view text) {
    put<uint64_t>(text.size());
    bytes_.insert(bytes_.end(), text.begin(), text.end());
    return *this;
  }
  Bytes& header(uint32_t version, uint64_t n_tensors, uint64_t n_key_values) {
    bytes_.insert(bytes_.end(), {'G', 'G', 'U', 'F'});
    return put(version).put(n_tensors).put(n_key_values);
  }
  std::span<const uint8_t> span() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

std::string parse_error(const Bytes& bytes) {
  auto file = GgufFile::parse(bytes.span());
  return file.ok() ? "parsed" : file.error().describe();
}

TEST(Reader, EmptyFileIsNotGguf) {
  EXPECT_EQ(parse_error(Bytes()), "not a GGUF file: it does not start with \"GGUF\"");
}

TEST(Reader, VersionOneIsRefusedByName) {
  Bytes bytes;
  bytes.header(1, 0, 0);
  EXPECT_EQ(parse_error(bytes), "GGUF version 1 is not supported (only versions 2 and 3)");
  auto file = GgufFile::parse(bytes.span());
  EXPECT_EQ(file.error().kind(), ErrorKind::kUnsupported);
}

TEST(Reader, BigEndianIsRefusedByName) {
  Bytes bytes;
  bytes.header(0x03000000, 0, 0);
  EXPECT_EQ(parse_error(bytes), "big-endian GGUF files are not supported");
}

TEST(Reader, EmptyVersionTwoAndThreeFilesParse) {
  for (uint32_t version : {2u, 3u}) {
    Bytes bytes;
    bytes.header(version, 0, 0);
    auto file = GgufFile::parse(bytes.span());
    ASSERT_TRUE(file.ok()) << file.error().describe();
    EXPECT_EQ(file->version(), version);
    EXPECT_TRUE(file->tensors().empty());
    EXPECT_EQ(file->data_offset(), 32u);
  }
}

TEST(Reader, NestedArraysOfStrings) {
  Bytes bytes;
  bytes.header(3, 0, 1).put_string("nested").put<uint32_t>(9);
  bytes.put<uint32_t>(9).put<uint64_t>(2);  // array of 2 arrays
  bytes.put<uint32_t>(8).put<uint64_t>(1).put_string("a");
  bytes.put<uint32_t>(8).put<uint64_t>(2).put_string("b").put_string("cd");
  auto file = GgufFile::parse(bytes.span());
  ASSERT_TRUE(file.ok()) << file.error().describe();
  const Value* value = file->metadata().find("nested");
  ASSERT_NE(value, nullptr);
  const auto& outer = std::get<std::shared_ptr<const Array>>(value->storage);
  ASSERT_EQ(outer->items.size(), 2u);
  const auto& second = std::get<std::shared_ptr<const Array>>(outer->items[1].storage);
  EXPECT_EQ(std::get<std::string_view>(second->items[1].storage), "cd");
}

TEST(Reader, DuplicateKeyIsAnError) {
  Bytes bytes;
  bytes.header(3, 0, 2);
  bytes.put_string("k").put<uint32_t>(4).put<uint32_t>(1);
  bytes.put_string("k").put<uint32_t>(4).put<uint32_t>(2);
  EXPECT_EQ(parse_error(bytes), "duplicate metadata key 'k'");
}

TEST(Reader, UnknownValueTypeIsAnError) {
  Bytes bytes;
  bytes.header(3, 0, 1).put_string("k").put<uint32_t>(13).put<uint32_t>(0);
  EXPECT_EQ(parse_error(bytes), "metadata key 'k': unknown value type 13");
}

TEST(Reader, ArrayCountLargerThanTheFileIsAnError) {
  Bytes bytes;
  bytes.header(3, 0, 1).put_string("k").put<uint32_t>(9);
  bytes.put<uint32_t>(5).put<uint64_t>(uint64_t{1} << 62).put<int32_t>(0);
  EXPECT_EQ(parse_error(bytes),
            "metadata key 'k': array of 4611686018427387904 int32 is larger than the bytes left "
            "in the file");
}

TEST(Reader, AlignmentMustBeAPowerOfTwo) {
  for (uint32_t alignment : {0u, 48u}) {
    Bytes bytes;
    bytes.header(3, 0, 1).put_string("general.alignment").put<uint32_t>(4).put(alignment);
    EXPECT_EQ(parse_error(bytes),
              "general.alignment " + std::to_string(alignment) + " is not a power of two");
  }
}

}  // namespace
}  // namespace ingot::gguf
