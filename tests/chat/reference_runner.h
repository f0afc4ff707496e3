#pragma once
// Runs tests/chat/jinja_reference.py (Python's Jinja2 configured as
// transformers configures it) once over a batch of cases.

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/shared_data.h"

namespace ingot::chat::testing {

// batch: {"now", "templates": [...], "cases": [{"template", "context"}]}.
// Returns one {"ok", "output"|"error"} per case, or null when Python or
// Jinja2 could not run.
inline nlohmann::ordered_json run_jinja_reference(const nlohmann::ordered_json& batch) {
  std::filesystem::path input = ingot::testing::temp_dir() / "reference_batch.json";
  std::ofstream(input, std::ios::binary) << batch.dump();
  std::filesystem::path script =
      ingot::testing::source_dir() / "tests" / "chat" / "jinja_reference.py";
  std::string command =
      "TZ=UTC /usr/bin/python3 '" + script.string() + "' < '" + input.string() + "'";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return nullptr;
  std::string output;
  char buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  if (pclose(pipe) != 0) return nullptr;
  return nlohmann::ordered_json::parse(output, nullptr, false);
}

}  // namespace ingot::chat::testing
