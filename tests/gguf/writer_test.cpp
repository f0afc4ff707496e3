// Round trips through GgufWriter and the reader: what is written is what
// is read back, at the alignment asked for.

#include "gguf/writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gguf/reader.h"
#include "support/shared_data.h"

namespace ingot::gguf {
namespace {

using kernels::ElementType;

Value array_of(ValueType element_type, std::vector<Value> items) {
  auto array = std::make_shared<Array>();
  array->element_type = element_type;
  array->items = std::move(items);
  return Value{ValueType::kArray, std::shared_ptr<const Array>(std::move(array))};
}

std::vector<uint8_t> counting_bytes(size_t n) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(i * 7 + 1);
  return bytes;
}

GgufWriter writer_with_every_value_type() {
  GgufWriter writer;
  writer.set("u8", Value{ValueType::kUint8, uint8_t{200}});
  writer.set("i8", Value{ValueType::kInt8, int8_t{-100}});
  writer.set("u16", Value{ValueType::kUint16, uint16_t{60000}});
  writer.set("i16", Value{ValueType::kInt16, int16_t{-30000}});
  writer.set_u32("u32", 4000000000u);
  writer.set_i32("i32", -2000000000);
  writer.set_f32("f32", 0.25f);
  writer.set_bool("yes", true);
  writer.set_string("text", "héllo");
  writer.set_u64("u64", uint64_t{1} << 40);
  writer.set("i64", Value{ValueType::kInt64, int64_t{-(int64_t{1} << 40)}});
  writer.set("f64", Value{ValueType::kFloat64, 1e300});
  std::vector<std::string> words = {"a", "", "ccc"};
  writer.set_strings("words", words);
  std::vector<float> floats = {1.5f, -2.0f};
  writer.set_f32s("floats", floats);
  writer.set("nested", array_of(ValueType::kArray,
                                {array_of(ValueType::kInt32, {Value{ValueType::kInt32, 7}}),
                                 array_of(ValueType::kInt32, {})}));
  return writer;
}

GgufFile parse_or_fail(const std::vector<uint8_t>& bytes) {
  auto file = GgufFile::parse(bytes);
  if (!file.ok()) ADD_FAILURE() << file.error().describe();
  return file.ok() ? std::move(file).value() : GgufFile();
}

TEST(Writer, EveryValueTypeRoundTrips) {
  auto bytes = writer_with_every_value_type().to_bytes();
  ASSERT_TRUE(bytes.ok()) << bytes.error().describe();
  GgufFile file = parse_or_fail(*bytes);
  const Metadata& m = file.metadata();
  EXPECT_EQ(file.version(), 3u);
  EXPECT_EQ(m.entries().size(), 15u);
  EXPECT_EQ(m.entries()[0].first, "u8");
  EXPECT_EQ(m.get<uint8_t>("u8").value(), 200);
  EXPECT_EQ(m.get<int8_t>("i8").value(), -100);
  EXPECT_EQ(m.get<uint16_t>("u16").value(), 60000);
  EXPECT_EQ(m.get<int16_t>("i16").value(), -30000);
  EXPECT_EQ(m.get<uint32_t>("u32").value(), 4000000000u);
  EXPECT_EQ(m.get<int32_t>("i32").value(), -2000000000);
  EXPECT_EQ(m.get<float>("f32").value(), 0.25f);
  EXPECT_TRUE(m.get<bool>("yes").value());
  EXPECT_EQ(m.get<std::string>("text").value(), "héllo");
  EXPECT_EQ(m.get<uint64_t>("u64").value(), uint64_t{1} << 40);
  EXPECT_EQ(m.get<int64_t>("i64").value(), -(int64_t{1} << 40));
  EXPECT_EQ(m.get<double>("f64").value(), 1e300);
  EXPECT_EQ(m.get<std::vector<std::string_view>>("words").value(),
            (std::vector<std::string_view>{"a", "", "ccc"}));
  EXPECT_EQ(m.get<std::vector<float>>("floats").value(), (std::vector<float>{1.5f, -2.0f}));
  const auto& nested = std::get<std::shared_ptr<const Array>>(m.find("nested")->storage);
  ASSERT_EQ(nested->items.size(), 2u);
  const auto& first = std::get<std::shared_ptr<const Array>>(nested->items[0].storage);
  EXPECT_EQ(first->element_type, ValueType::kInt32);
  EXPECT_EQ(std::get<int32_t>(first->items[0].storage), 7);
}

TEST(Writer, TypedGetConvertsWidthsOnlyWhenTheValueFits) {
  auto bytes = writer_with_every_value_type().to_bytes();
  ASSERT_TRUE(bytes.ok());
  GgufFile file = parse_or_fail(*bytes);
  const Metadata& m = file.metadata();
  EXPECT_EQ(m.get<uint64_t>("u8").value(), 200u);
  EXPECT_EQ(m.get<int64_t>("u32").value(), 4000000000);
  EXPECT_FALSE(m.get<int32_t>("u32").ok());
  EXPECT_FALSE(m.get<uint32_t>("i8").ok());
  EXPECT_EQ(m.get<double>("f32").value(), 0.25);
  EXPECT_FALSE(m.get<std::string>("u32").ok());
  EXPECT_FALSE(m.get<bool>("u8").ok());
  EXPECT_EQ(m.get<uint32_t>("missing").error().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(m.get<int32_t>("u32").error().message(),
            "metadata key 'u32' holds uint32 that does not convert to int32");
  EXPECT_EQ(m.get_or<uint32_t>("missing", 5u), 5u);
  EXPECT_EQ(m.get_or<uint32_t>("text", 6u), 6u);
}

TEST(Writer, ArchKeyUsesTheArchitecture) {
  GgufWriter writer;
  writer.set_string("general.architecture", "qwen2");
  writer.set_u32("qwen2.block_count", 24);
  auto bytes = writer.to_bytes();
  ASSERT_TRUE(bytes.ok());
  GgufFile file = parse_or_fail(*bytes);
  EXPECT_EQ(file.metadata().arch_key("block_count"), "qwen2.block_count");
  EXPECT_EQ(file.metadata().get<uint32_t>(file.metadata().arch_key("block_count")).value(), 24u);
}

TEST(Writer, SettingAKeyAgainReplacesItInPlace) {
  GgufWriter writer;
  writer.set_u32("a", 1);
  writer.set_u32("b", 2);
  writer.set_string("a", "again");
  auto bytes = writer.to_bytes();
  ASSERT_TRUE(bytes.ok());
  GgufFile file = parse_or_fail(*bytes);
  ASSERT_EQ(file.metadata().entries().size(), 2u);
  EXPECT_EQ(file.metadata().entries()[0].first, "a");
  EXPECT_EQ(file.metadata().get<std::string>("a").value(), "again");
}

TEST(Writer, TensorsRoundTripAtTheRequestedAlignment) {
  for (uint32_t alignment : {0u, 1u, 64u, 4096u}) {
    SCOPED_TRACE(alignment);
    GgufWriter writer;
    if (alignment != 0) writer.set_u32("general.alignment", alignment);
    auto f32 = counting_bytes(3 * 5 * 4);
    auto q8 = counting_bytes(64 / 32 * 34 * 2);
    ASSERT_TRUE(writer.add_tensor("a", {3, 5}, ElementType::kF32, f32).ok());
    ASSERT_TRUE(writer.add_tensor("b", {64, 2}, ElementType::kQ8_0, q8).ok());
    ASSERT_TRUE(writer
                    .add_tensor("c", {7}, ElementType::kF16,
                                [](std::span<uint8_t> out) {
                                  std::fill(out.begin(), out.end(), uint8_t{0xAB});
                                })
                    .ok());
    auto bytes = writer.to_bytes();
    ASSERT_TRUE(bytes.ok());
    GgufFile file = parse_or_fail(*bytes);
    uint64_t expected_alignment = alignment == 0 ? 32 : alignment;
    EXPECT_EQ(file.alignment(), expected_alignment);
    ASSERT_EQ(file.tensors().size(), 3u);
    const TensorInfo& a = file.tensors()[0];
    const TensorInfo& b = file.tensors()[1];
    const TensorInfo& c = file.tensors()[2];
    EXPECT_EQ(a.name, "a");
    EXPECT_EQ(a.dims, (std::vector<int64_t>{3, 5}));
    EXPECT_EQ(std::vector<uint8_t>(a.data, a.data + a.n_bytes), f32);
    EXPECT_EQ(b.type, ElementType::kQ8_0);
    EXPECT_EQ(std::vector<uint8_t>(b.data, b.data + b.n_bytes), q8);
    EXPECT_EQ(c.n_bytes, 14u);
    EXPECT_EQ(c.data[13], 0xAB);
    for (const TensorInfo& tensor : file.tensors()) {
      EXPECT_EQ((file.data_offset() + tensor.offset) % expected_alignment, 0u);
    }
  }
}

TEST(Writer, RefusesBadTensors) {
  GgufWriter writer;
  EXPECT_FALSE(writer.add_tensor("a", {3}, ElementType::kF32, std::vector<uint8_t>(11)).ok());
  EXPECT_FALSE(writer.add_tensor("q", {48}, ElementType::kQ8_0, std::vector<uint8_t>(51)).ok());
  EXPECT_FALSE(writer.add_tensor("z", {0}, ElementType::kF32, std::vector<uint8_t>()).ok());
  EXPECT_FALSE(
      writer.add_tensor("d", {1, 1, 1, 1, 1}, ElementType::kF32, std::vector<uint8_t>(4)).ok());
  ASSERT_TRUE(writer.add_tensor("a", {1}, ElementType::kF32, std::vector<uint8_t>(4)).ok());
  auto duplicate = writer.add_tensor("a", {1}, ElementType::kF32, std::vector<uint8_t>(4));
  EXPECT_EQ(duplicate.error().message(), "duplicate tensor 'a'");
}

TEST(Writer, RefusesABadAlignment) {
  GgufWriter writer;
  writer.set_u32("general.alignment", 48);
  EXPECT_FALSE(writer.to_bytes().ok());
}

TEST(Writer, WritesAFileTheReaderOpens) {
  GgufWriter writer = writer_with_every_value_type();
  ASSERT_TRUE(writer.add_tensor("t", {4}, ElementType::kF32, counting_bytes(16)).ok());
  std::string path = (testing::temp_dir() / "round-trip.gguf").string();
  Status status = writer.write(path);
  ASSERT_TRUE(status.ok()) << status.error().describe();
  auto file = GgufFile::open(path);
  ASSERT_TRUE(file.ok()) << file.error().describe();
  EXPECT_EQ(file->path(), path);
  EXPECT_EQ(file->metadata().get<std::string>("text").value(), "héllo");
  EXPECT_EQ(file->find_tensor("t")->data[1], counting_bytes(16)[1]);
  EXPECT_EQ(file->file_size(), writer.to_bytes().value().size());
}

TEST(Writer, ReportsAnUnwritablePath) {
  GgufWriter writer;
  Status status = writer.write("/nonexistent-dir/x.gguf");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().kind(), ErrorKind::kIo);
}

}  // namespace
}  // namespace ingot::gguf
