// The prompt cache's block files (--prompt-cache DIR) as a restart finds
// them: either arbitrary bytes, or a block the store wrote itself with
// bytes of it overwritten or cut. A file that is not exactly what its name
// says is rejected and deleted; only a whole block is ever loaded.

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include "engine/prompt_disk_store.h"
#include "fuzz_input.h"

namespace {

namespace fs = std::filesystem;
using ingot::engine::PromptDiskLayout;
using ingot::engine::PromptDiskOptions;
using ingot::engine::PromptDiskStore;

constexpr uint64_t kHash = 0x1234'5678'9abc'def0;
constexpr uint64_t kParent = 42;
constexpr int64_t kBlockSize = 4;
constexpr int64_t kBlockBytes = 64;
const PromptDiskLayout kLayout{7, kBlockSize, kBlockBytes};
const std::vector<int32_t> kTokens = {1, 2, 3, 4};

// A directory of this process's own, removed when it exits.
struct StoreDir {
  fs::path path =
      fs::temp_directory_path() / ("ingot-fuzz-prompt-cache-" + std::to_string(::getpid()));
  ~StoreDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

const fs::path& store_dir() {
  static const StoreDir dir;
  return dir.path;
}

// The one block file of kHash, written by a store.
fs::path write_valid_block() {
  PromptDiskStore store(PromptDiskOptions{store_dir()}, kLayout);
  std::vector<std::byte> payload(kBlockBytes, std::byte{0x5a});
  store.save(kHash, kParent, kTokens, std::move(payload));
  store.flush();
  for (const auto& entry : fs::recursive_directory_iterator(store_dir())) {
    if (entry.is_regular_file()) return entry.path();
  }
  return {};
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The input's edits on `bytes`: (offset, byte) pairs, then maybe a cut.
std::string edited(std::string bytes, ingot::fuzz::FuzzInput& input) {
  const size_t edits = input.choice(8);
  for (size_t i = 0; i < edits && !bytes.empty(); ++i) {
    const size_t at = (input.choice(256) << 8 | input.choice(256)) % bytes.size();
    bytes[at] = static_cast<char>(input.choice(256));
  }
  if (input.flag()) bytes.resize((input.choice(256) << 8 | input.choice(256)) % (bytes.size() + 1));
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ingot::fuzz::FuzzInput input(data, size);
  fs::remove_all(store_dir());
  const fs::path file = write_valid_block();
  if (file.empty()) return 0;
  const std::string bytes =
      input.flag() ? edited(read_file(file), input) : std::string(input.rest());
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  PromptDiskStore store(PromptDiskOptions{store_dir()}, kLayout);
  (void)store.load(kHash, kParent, kTokens);
  return 0;
}
