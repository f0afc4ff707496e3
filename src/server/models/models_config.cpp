#include "server/models/models_config.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>
#include <toml.hpp>

#include "util/utf8.h"

namespace ingot::server {
namespace {

using ConfigJson = nlohmann::json;

// TOML's values as JSON's, so that one reader checks both formats.
ConfigJson toml_to_json(const toml::value& value) {
  switch (value.type()) {
    case toml::value_t::boolean:
      return value.as_boolean();
    case toml::value_t::integer:
      return value.as_integer();
    case toml::value_t::floating:
      return value.as_floating();
    case toml::value_t::string:
      return value.as_string().str;
    case toml::value_t::array: {
      ConfigJson array = ConfigJson::array();
      for (const toml::value& item : value.as_array()) array.push_back(toml_to_json(item));
      return array;
    }
    case toml::value_t::table: {
      ConfigJson object = ConfigJson::object();
      for (const auto& [key, item] : value.as_table()) object[key] = toml_to_json(item);
      return object;
    }
    default:
      throw std::invalid_argument("dates and times have no meaning here");
  }
}

// One model's settings; `where` names it in errors.
class SettingsReader {
 public:
  SettingsReader(const ConfigJson& object, std::string where)
      : object_(object), where_(std::move(where)) {}

  Result<ModelSettings> read() {
    if (!object_.is_object()) return fail("must be a table of settings");
    for (const auto& [key, value] : object_.items()) {
      Status read = read_key(key, value);
      if (!read.ok()) return read.error();
    }
    return settings_;
  }

 private:
  Status read_key(const std::string& key, const ConfigJson& value) {
    if (key == "aliases") return read_aliases(value);
    if (key == "ctx_size") return integer(key, value, 0, int64_t{1} << 24, settings_.ctx_size);
    if (key == "parallel") return integer(key, value, 1, 256, settings_.parallel);
    if (key == "max_tokens") {
      std::optional<int64_t> tokens;
      INGOT_RETURN_IF_ERROR(integer(key, value, -1, int64_t{1} << 24, tokens));
      settings_.max_tokens = int32_t(*tokens);
      return {};
    }
    if (key == "pinned") {
      if (!value.is_boolean()) return fail("pinned must be true or false");
      settings_.pinned = value.get<bool>();
      return {};
    }
    if (key == "sampling") return read_sampling(value);
    return fail("has no setting '" + key + "'");
  }

  Status read_aliases(const ConfigJson& value) {
    if (!value.is_array()) return fail("aliases must be a list of names");
    for (const ConfigJson& alias : value) {
      if (!alias.is_string() || alias.get<std::string>().empty()) {
        return fail("aliases must be a list of names");
      }
      settings_.aliases.push_back(alias.get<std::string>());
    }
    return {};
  }

  Status read_sampling(const ConfigJson& value) {
    if (!value.is_object()) return fail("sampling must be a table");
    for (const auto& [key, number] : value.items()) {
      if (key == "top_k") {
        std::optional<int64_t> top_k;
        INGOT_RETURN_IF_ERROR(integer("sampling.top_k", number, 0, 1 << 20, top_k));
        settings_.top_k = int32_t(*top_k);
        continue;
      }
      std::optional<float>* field = key == "temperature"      ? &settings_.temperature
                                    : key == "top_p"          ? &settings_.top_p
                                    : key == "min_p"          ? &settings_.min_p
                                    : key == "repeat_penalty" ? &settings_.repeat_penalty
                                                              : nullptr;
      if (field == nullptr) return fail("has no sampling setting '" + key + "'");
      const double high = key == "top_p" || key == "min_p" ? 1.0 : 100.0;
      if (!number.is_number() || number.get<double>() < 0 || number.get<double>() > high) {
        return fail("sampling." + key + " must be a number from 0 to " + ConfigJson(high).dump());
      }
      *field = number.get<float>();
    }
    return {};
  }

  Status integer(const std::string& key, const ConfigJson& value, int64_t low, int64_t high,
                 std::optional<int64_t>& out) {
    if (!value.is_number_integer() || value.get<int64_t>() < low || value.get<int64_t>() > high) {
      return fail(key + " must be a whole number from " + std::to_string(low) + " to " +
                  std::to_string(high));
    }
    out = value.get<int64_t>();
    return {};
  }

  Error fail(const std::string& message) const { return invalid_argument(where_ + ": " + message); }

  const ConfigJson& object_;
  std::string where_;
  ModelSettings settings_;
};

Result<ModelsConfig> read_models_document(const ConfigJson& document) {
  if (!document.is_object()) return invalid_argument("--models-config: expected a table");
  ModelsConfig config;
  for (const auto& [key, models] : document.items()) {
    if (key != "models") return invalid_argument("--models-config: unknown key '" + key + "'");
    if (!models.is_object()) return invalid_argument("--models-config: models must be a table");
    for (const auto& [name, settings] : models.items()) {
      INGOT_ASSIGN_OR_RETURN(config[name],
                             SettingsReader(settings, "--models-config: " + name).read());
    }
  }
  return config;
}

// toml11 parses nested arrays and inline tables by recursion, with no bound:
// the deepest nesting of `[` and `{` outside strings and comments, checked
// first.
constexpr int kMaxTomlNesting = 64;

int toml_nesting_depth(std::string_view text) {
  int depth = 0, deepest = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '#') {
      i = std::min(text.find('\n', i), text.size());
    } else if (c == '"' || c == '\'') {
      // A string: basic ("..."), literal ('...'), or either multi-line.
      const std::string_view quote =
          text.substr(i, 3) == std::string(3, c) ? text.substr(i, 3) : text.substr(i, 1);
      size_t j = i + quote.size();
      while (j < text.size() && text.substr(j, quote.size()) != quote)
        j += c == '"' && text[j] == '\\' ? 2 : 1;
      i = std::min(j + quote.size(), text.size()) - 1;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

}  // namespace

Result<ModelsConfig> parse_models_config(const std::string& text, const std::string& format) {
  // TOML files are UTF-8, and toml11 reads past the end of a string that
  // holds a truncated sequence: such a file is refused before it sees it.
  if (!utf8::is_valid(text)) return invalid_argument("--models-config: the file is not UTF-8");
  if (format == "toml" && toml_nesting_depth(text) > kMaxTomlNesting) {
    return invalid_argument("--models-config: arrays or tables nested deeper than " +
                            std::to_string(kMaxTomlNesting));
  }
  ConfigJson document;
  try {
    if (format == "toml") {
      std::istringstream stream(text);
      document = toml_to_json(toml::parse(stream, "models-config"));
    } else {
      document = ConfigJson::parse(text);
    }
  } catch (const std::exception& e) {
    return invalid_argument("--models-config: " + std::string(e.what()));
  }
  return read_models_document(document);
}

Result<ModelsConfig> read_models_config(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return invalid_argument("--models-config " + path + ": cannot be read");
  std::stringstream text;
  text << file.rdbuf();
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension != ".toml" && extension != ".json") {
    return invalid_argument("--models-config " + path + ": name it .toml or .json");
  }
  return parse_models_config(text.str(), extension.substr(1));
}

}  // namespace ingot::server
