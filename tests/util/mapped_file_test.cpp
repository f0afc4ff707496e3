#include "util/mapped_file.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>

#include "support/shared_data.h"

namespace ingot {
namespace {

TEST(MappedFile, MapsAWholeFile) {
  auto path = (testing::temp_dir() / "bytes.bin").string();
  std::ofstream(path, std::ios::binary) << "hello";
  auto file = MappedFile::open(path);
  ASSERT_TRUE(file.ok()) << file.error().describe();
  ASSERT_EQ(file->size(), 5u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(file->data()), 5), "hello");
}

TEST(MappedFile, EmptyFileHasNoBytes) {
  auto path = (testing::temp_dir() / "empty.bin").string();
  std::ofstream(path, std::ios::binary).flush();
  auto file = MappedFile::open(path);
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file->size(), 0u);
}

TEST(MappedFile, MissingFileIsNotFound) {
  auto file = MappedFile::open("/nonexistent/ingot/file.gguf");
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().kind(), ErrorKind::kNotFound);
}

TEST(MappedFile, DirectoryIsAnError) {
  auto file = MappedFile::open(testing::temp_dir().string());
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().kind(), ErrorKind::kIo);
}

TEST(ReleaseMappedPages, ContentsReadBackFromTheFile) {
  auto path = (testing::temp_dir() / "released.bin").string();
  std::string bytes(5 * 4096 + 123, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 31 + 7);
  std::ofstream(path, std::ios::binary) << bytes;
  auto file = MappedFile::open(path);
  ASSERT_TRUE(file.ok()) << file.error().describe();
  const uint8_t* data = file->data();
  ASSERT_EQ(std::memcmp(data, bytes.data(), bytes.size()), 0);
  // An unaligned range: only the whole pages inside it are dropped.
  release_mapped_pages(data + 100, bytes.size() - 200);
  EXPECT_EQ(std::memcmp(data, bytes.data(), bytes.size()), 0);
}

}  // namespace
}  // namespace ingot
