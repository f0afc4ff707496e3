#pragma once
// Locating ../shared (test models and fixtures) and the build's binaries.
// ../shared sits beside the checkout on developer machines and in CI; a
// fresh clone elsewhere lacks it, and tests that need it skip, saying so.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace ingot::testing {

// The ../shared folder, or an empty path when it is absent.
std::filesystem::path shared_dir();

// A path under ../shared, e.g. shared_path("models/stories260K.gguf").
std::filesystem::path shared_path(const std::string& relative);

// The checkout (for scripts beside the tests, e.g. the Jinja2 reference).
std::filesystem::path source_dir();

// The build folder (where `ingot` and `ingot-synth` are).
std::filesystem::path build_dir();

// A fresh, empty temporary folder removed when the process exits.
std::filesystem::path temp_dir();

}  // namespace ingot::testing

// Skips the current test when ../shared is not there.
#define INGOT_REQUIRE_SHARED()                                                   \
  do {                                                                           \
    if (::ingot::testing::shared_dir().empty())                                  \
      GTEST_SKIP() << "../shared is absent: test models and fixtures not found"; \
  } while (0)
