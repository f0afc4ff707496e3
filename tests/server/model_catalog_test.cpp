// The models `serve --models DIR` offers: every GGUF model under the
// directory by its file name, links the operator placed included, and
// nothing a name or a link swapped in later could reach.

#include "server/models/model_catalog.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::server {
namespace {

namespace fs = std::filesystem;

// A fresh directory under the test's temporary one.
fs::path fresh_dir(const std::string& name) {
  const fs::path dir = ingot::testing::temp_dir() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(ModelCatalog, FindsModelsInSubfoldersByFileNameAndLeavesOutTheRest) {
  INGOT_REQUIRE_SHARED();
  const fs::path dir = fresh_dir("catalog-models");
  fs::create_directories(dir / "more");
  fs::copy_file(ingot::testing::shared_path("models/stories260K.gguf"), dir / "stories.gguf");
  fs::copy_file(ingot::testing::shared_path("models/small-llama-q4_0.gguf"),
                dir / "more" / "small.gguf");
  std::ofstream(dir / "notes.gguf") << "not a model";
  std::ofstream(dir / "readme.txt") << "not a model either";
  fs::create_symlink(ingot::testing::shared_path("models/small-llama-q8_0.gguf"),
                     dir / "outside.gguf");

  auto catalog = ModelCatalog::scan(dir.string());
  ASSERT_TRUE(catalog.ok()) << catalog.error().describe();
  std::vector<std::string> names;
  for (const CatalogEntry& entry : catalog->entries()) names.push_back(entry.name);
  EXPECT_EQ(names, (std::vector<std::string>{"small", "outside", "stories"}));
  const CatalogEntry* small = catalog->find("small");
  ASSERT_NE(small, nullptr);
  EXPECT_EQ(small->path, fs::canonical(dir / "more" / "small.gguf").string());
  EXPECT_EQ(small->architecture, "llama");
  EXPECT_GT(small->file_bytes, 0u);
  const CatalogEntry* linked = catalog->find("outside");
  ASSERT_NE(linked, nullptr);  // a link into a download cache is followed
  EXPECT_EQ(linked->path,
            fs::canonical(ingot::testing::shared_path("models/small-llama-q8_0.gguf")));
  EXPECT_TRUE(ModelCatalog::check_unchanged(*linked).ok());
  for (const char* name : {"notes", "more/small", "../catalog-models/stories", ""}) {
    EXPECT_EQ(catalog->find(name), nullptr) << name;
  }
}

TEST(ModelCatalog, ALinkSwappedAfterTheScanLoadsNothing) {
  INGOT_REQUIRE_SHARED();
  const fs::path dir = fresh_dir("catalog-swapped");
  fs::copy_file(ingot::testing::shared_path("models/stories260K.gguf"), dir / "real.gguf");
  fs::create_symlink(dir / "real.gguf", dir / "linked.gguf");
  fs::create_symlink(dir / "nowhere", dir / "dangling.gguf");  // skipped, the scan goes on
  std::ofstream(dir / "zz-secret.txt") << "not for clients";
  auto catalog = ModelCatalog::scan(dir.string());
  ASSERT_TRUE(catalog.ok()) << catalog.error().describe();
  ASSERT_EQ(catalog->entries().size(), 2u);
  const CatalogEntry* linked = catalog->find("linked");
  ASSERT_NE(linked, nullptr);
  EXPECT_TRUE(ModelCatalog::check_unchanged(*linked).ok());
  // The link now leads elsewhere: its load is refused.
  fs::remove(dir / "linked.gguf");
  fs::create_symlink(dir / "zz-secret.txt", dir / "linked.gguf");
  EXPECT_FALSE(ModelCatalog::check_unchanged(*linked).ok());
  // The file itself replaced (another inode at the same path): refused too.
  const CatalogEntry* real = catalog->find("real");
  ASSERT_NE(real, nullptr);
  fs::copy_file(ingot::testing::shared_path("models/stories260K.gguf"), dir / "replacement");
  fs::rename(dir / "replacement", dir / "real.gguf");
  EXPECT_FALSE(ModelCatalog::check_unchanged(*real).ok());
}

TEST(ModelCatalog, TwoFilesOfOneNameAreAnErrorNamingBoth) {
  INGOT_REQUIRE_SHARED();
  const fs::path dir = fresh_dir("catalog-twice");
  fs::create_directories(dir / "a");
  fs::create_directories(dir / "b");
  fs::copy_file(ingot::testing::shared_path("models/stories260K.gguf"), dir / "a" / "m.gguf");
  fs::copy_file(ingot::testing::shared_path("models/stories260K.gguf"), dir / "b" / "m.gguf");
  auto catalog = ModelCatalog::scan(dir.string());
  ASSERT_FALSE(catalog.ok());
  EXPECT_NE(catalog.error().message().find("a/m.gguf"), std::string::npos);
  EXPECT_NE(catalog.error().message().find("b/m.gguf"), std::string::npos);
}

TEST(ModelCatalog, AnAdapterIsServedAsModelColonAdapterForTheModelsItFits) {
  INGOT_REQUIRE_SHARED();
  const fs::path dir = fresh_dir("catalog-adapters");
  fs::copy_file(ingot::testing::synthetic_model("tiny", "f16"), dir / "tiny.gguf");
  fs::copy_file(ingot::testing::synthetic_model("tiny", "q8_0"), dir / "tiny-q8.gguf");
  fs::copy_file(ingot::testing::shared_path("models/tiny-qwen3-f16.gguf"), dir / "qwen3.gguf");
  fs::copy_file(ingot::testing::synthetic_lora("tiny", 3), dir / "style.gguf");
  auto catalog = ModelCatalog::scan(dir.string());
  ASSERT_TRUE(catalog.ok()) << catalog.error().describe();
  ASSERT_EQ(catalog->entries().size(), 3u);
  for (const char* base : {"tiny", "tiny-q8"}) {
    const CatalogEntry* entry = catalog->find(base);
    ASSERT_NE(entry, nullptr);
    ASSERT_EQ(entry->adapters.size(), 1u) << base;
    EXPECT_EQ(entry->adapters[0].name, "style");
    EXPECT_EQ(catalog->find_for_request(std::string(base) + ":style"), entry);
  }
  EXPECT_TRUE(catalog->find("qwen3")->adapters.empty());
  EXPECT_EQ(catalog->find_for_request("qwen3:style"), nullptr);
  EXPECT_EQ(catalog->find_for_request("style"), nullptr);
}

TEST(ModelCatalog, ADirectoryWithoutModelsOrNoDirectoryIsAnError) {
  const fs::path dir = fresh_dir("catalog-empty");
  EXPECT_FALSE(ModelCatalog::scan(dir.string()).ok());
  EXPECT_FALSE(ModelCatalog::scan((dir / "missing").string()).ok());
}

}  // namespace
}  // namespace ingot::server
