// Imports a Hugging Face byte-level BPE tokenizer the way llama.cpp's
// converter does: tokens by id (gaps filled with unused [PAD<id>] entries),
// added tokens as control (special) or user-defined tokens, merges as
// "left right" strings, special ids and the chat template from the config.

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

#include "vocabulary.h"

namespace ingot::synth {
namespace {

using nlohmann::json;

constexpr int32_t kTokenNormal = 1;
constexpr int32_t kTokenControl = 3;
constexpr int32_t kTokenUserDefined = 4;
constexpr int32_t kTokenUnused = 5;
// Far above any real vocabulary; refuses ids that would make us allocate
// absurd token tables.
constexpr int64_t kMaxTokenId = 16'000'000;

Result<json> read_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return not_found(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  json parsed = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return invalid_format(path + ": not valid JSON");
  return parsed;
}

struct Tokens {
  std::vector<std::string> texts;
  std::vector<int32_t> types;
  std::unordered_map<std::string, uint32_t> ids;

  void put(int64_t id, const std::string& text, int32_t type) {
    if (id >= static_cast<int64_t>(texts.size())) {
      texts.resize(static_cast<size_t>(id) + 1);
      types.resize(static_cast<size_t>(id) + 1, 0);
    }
    texts[static_cast<size_t>(id)] = text;
    types[static_cast<size_t>(id)] = type;
    ids[text] = static_cast<uint32_t>(id);
  }

  void fill_gaps() {
    for (size_t id = 0; id < texts.size(); ++id) {
      if (types[id] != 0) continue;
      texts[id] = fmt::format("[PAD{}]", id);
      types[id] = kTokenUnused;
    }
  }
};

Status read_tokens(const json& tokenizer, Tokens& tokens) {
  const json& model = tokenizer.value("model", json::object());
  if (model.value("type", "") != "BPE") return unsupported("only BPE tokenizer.json is supported");
  const json& vocab = model.value("vocab", json::object());
  if (!vocab.is_object() || vocab.empty()) return invalid_format("tokenizer.json has no vocab");
  for (const auto& [text, id] : vocab.items()) {
    if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() > kMaxTokenId) {
      return invalid_format(fmt::format("token '{}' has a bad id", text));
    }
    tokens.put(id.get<int64_t>(), text, kTokenNormal);
  }
  for (const json& added : tokenizer.value("added_tokens", json::array())) {
    int64_t id = added.value("id", int64_t{-1});
    if (id < 0 || id > kMaxTokenId) return invalid_format("an added token has a bad id");
    tokens.put(id, added.value("content", ""),
               added.value("special", false) ? kTokenControl : kTokenUserDefined);
  }
  tokens.fill_gaps();
  return {};
}

// Merges are "left right" strings in older files and [left, right] pairs
// in newer ones.
Result<std::vector<std::string>> read_merges(const json& tokenizer) {
  std::vector<std::string> merges;
  for (const json& merge : tokenizer["model"].value("merges", json::array())) {
    if (merge.is_string()) {
      merges.push_back(merge.get<std::string>());
    } else if (merge.is_array() && merge.size() == 2 && merge[0].is_string() &&
               merge[1].is_string()) {
      merges.push_back(merge[0].get<std::string>() + " " + merge[1].get<std::string>());
    } else {
      return invalid_format("tokenizer.json has a merge that is neither a string nor a pair");
    }
  }
  return merges;
}

// A special token in tokenizer_config.json is a string or {"content": ...}.
std::optional<std::string> special_text(const json& config, const char* field) {
  if (!config.contains(field)) return std::nullopt;
  const json& value = config[field];
  if (value.is_string()) return value.get<std::string>();
  if (value.is_object() && value.contains("content") && value["content"].is_string()) {
    return value["content"].get<std::string>();
  }
  return std::nullopt;
}

// The template is a string, or a list of named templates of which we take
// "default" (or the first).
std::optional<std::string> chat_template(const json& config) {
  if (!config.contains("chat_template")) return std::nullopt;
  const json& value = config["chat_template"];
  if (value.is_string()) return value.get<std::string>();
  if (!value.is_array() || value.empty()) return std::nullopt;
  for (const json& named : value) {
    if (named.value("name", "") == "default") return named.value("template", "");
  }
  return value[0].value("template", "");
}

void write_config(const json& config, const Tokens& tokens, gguf::GgufWriter& writer) {
  constexpr std::pair<const char*, const char*> kSpecials[] = {
      {"bos_token", "tokenizer.ggml.bos_token_id"},
      {"eos_token", "tokenizer.ggml.eos_token_id"},
      {"pad_token", "tokenizer.ggml.padding_token_id"},
      {"unk_token", "tokenizer.ggml.unknown_token_id"},
  };
  for (const auto& [field, key] : kSpecials) {
    std::optional<std::string> text = special_text(config, field);
    if (!text) continue;
    auto id = tokens.ids.find(*text);
    if (id != tokens.ids.end()) writer.set_u32(key, id->second);
  }
  bool add_bos = config.contains("add_bos_token") && config["add_bos_token"].is_boolean() &&
                 config["add_bos_token"].get<bool>();
  writer.set_bool("tokenizer.ggml.add_bos_token", add_bos);
  std::optional<std::string> template_text = chat_template(config);
  if (template_text) writer.set_string("tokenizer.chat_template", *template_text);
}

Result<int64_t> import_tokenizer(const std::string& tokenizer_path, const std::string& config_path,
                                 gguf::GgufWriter& writer) {
  INGOT_ASSIGN_OR_RETURN(json tokenizer, read_json(tokenizer_path));
  if (!tokenizer.is_object()) return invalid_format(tokenizer_path + ": not a JSON object");
  Tokens tokens;
  Status status = read_tokens(tokenizer, tokens);
  if (!status.ok()) return status.error().add_context("while reading " + tokenizer_path);
  INGOT_ASSIGN_OR_RETURN(std::vector<std::string> merges, read_merges(tokenizer));
  writer.set_string("tokenizer.ggml.model", "gpt2");
  writer.set_string("tokenizer.ggml.pre", "qwen2");
  writer.set_strings("tokenizer.ggml.tokens", tokens.texts);
  writer.set_i32s("tokenizer.ggml.token_type", tokens.types);
  writer.set_strings("tokenizer.ggml.merges", merges);
  json config = json::object();
  if (!config_path.empty()) {
    INGOT_ASSIGN_OR_RETURN(config, read_json(config_path));
    if (!config.is_object()) return invalid_format(config_path + ": not a JSON object");
  }
  write_config(config, tokens, writer);
  return static_cast<int64_t>(tokens.texts.size());
}

}  // namespace

Result<int64_t> import_hf_tokenizer(const std::string& tokenizer_path,
                                    const std::string& config_path, gguf::GgufWriter& writer) {
  // nlohmann's accessors throw on a value of the wrong JSON type; any such
  // surprise in the files is a format error, not a crash.
  try {
    return import_tokenizer(tokenizer_path, config_path, writer);
  } catch (const json::exception& e) {
    return invalid_format(
        fmt::format("{}: unexpected JSON structure: {}", tokenizer_path, e.what()));
  }
}

}  // namespace ingot::synth
