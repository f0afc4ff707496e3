#include "support/shared_data.h"

#include <unistd.h>

#include <cstdlib>
#include <system_error>

namespace ingot::testing {
namespace fs = std::filesystem;

fs::path shared_dir() {
  const char* env = std::getenv("INGOT_SHARED_DIR");
  fs::path dir = env != nullptr ? fs::path(env) : fs::path(INGOT_SHARED_DIR_DEFAULT);
  std::error_code ec;
  if (!fs::is_directory(dir / "models", ec)) return {};
  return dir;
}

fs::path shared_path(const std::string& relative) {
  return shared_dir() / relative;
}

fs::path source_dir() {
  return fs::path(INGOT_SOURCE_DIR_DEFAULT);
}

fs::path build_dir() {
  const char* env = std::getenv("INGOT_BUILD_DIR");
  return env != nullptr ? fs::path(env) : fs::path(INGOT_BUILD_DIR_DEFAULT);
}

namespace {
struct TempDirOwner {
  fs::path path;
  ~TempDirOwner() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};
}  // namespace

fs::path temp_dir() {
  static TempDirOwner owner;
  static int counter = 0;
  if (owner.path.empty()) {
    std::string pattern = (fs::temp_directory_path() / "ingot-test-XXXXXX").string();
    owner.path = mkdtemp(pattern.data());
  }
  fs::path dir = owner.path / std::to_string(counter++);
  fs::create_directories(dir);
  return dir;
}

}  // namespace ingot::testing
