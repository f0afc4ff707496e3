#include "sampling/grammar/format_call_grammar.h"

#include <optional>
#include <set>

#include "chat/tool_calls/argument_typing.h"
#include "sampling/grammar/gbnf_text.h"

namespace ingot::sampling::grammar {
namespace {

using chat::tool_calls::ArgumentsForm;
using chat::tool_calls::CallFormat;
using chat::tool_calls::HeaderPiece;
using Json = nlohmann::ordered_json;

// Between a format's markers the models write a newline or nothing.
constexpr std::string_view kGap = "\"\\n\"?";

// The longest minLength or maxLength a raw string's grammar spells out.
constexpr uint64_t kMaxSpelledLength = 256;

// Deeper than this, a nested value is written as JSON (MiniMax M3) or as
// any Gemma 4 value.
constexpr int kMaxNestedDepth = 8;

// Appends each of `parts` to `out`, a space before each.
void add(std::string& out, std::initializer_list<std::string_view> parts) {
  for (std::string_view part : parts) {
    out += ' ';
    out += part;
  }
}

bool is_required(const Json& parameters, const std::string& key) {
  auto required = parameters.find("required");
  if (required == parameters.end() || !required->is_array()) return false;
  for (const Json& name : *required) {
    if (name == key) return true;
  }
  return false;
}

bool is_string_type(const Json& schema) {
  auto type = schema.find("type");
  return type != schema.end() && *type == "string";
}

// The strings an enum or const allows, when it allows only strings.
std::optional<std::vector<std::string>> string_choices(const Json& schema) {
  Json values = schema.contains("enum")    ? schema["enum"]
                : schema.contains("const") ? Json::array({schema["const"]})
                                           : Json();
  if (!values.is_array() || values.empty()) return std::nullopt;
  std::vector<std::string> choices;
  for (const Json& value : values) {
    if (!value.is_string()) return std::nullopt;
    choices.push_back(value.get<std::string>());
  }
  return choices;
}

std::optional<uint64_t> length_bound(const Json& schema, const char* key) {
  auto found = schema.find(key);
  if (found == schema.end() || !found->is_number_unsigned()) return std::nullopt;
  return found->get<uint64_t>();
}

// A string argument written as raw text up to `close`: one of its enum's
// values; text of the schema's length (up to kMaxSpelledLength), without
// the close's first character, when it bounds the length; else any text
// without the close (a pattern or format is not enforced there).
std::string raw_string(const Json& schema, std::string_view close,
                       JsonSchemaGrammarBuilder& builder) {
  if (auto choices = string_choices(schema)) {
    std::string rule;
    for (const std::string& choice : *choices) append_separated(rule, " | ", gbnf_literal(choice));
    return "( " + rule + " )";
  }
  std::optional<uint64_t> min = length_bound(schema, "minLength");
  std::optional<uint64_t> max = length_bound(schema, "maxLength");
  // A bound is spelled one element per character: past a short one, the
  // text is left unbounded (as the relaxed schemas leave what a grammar
  // cannot hold) rather than the grammar grown past its limit.
  if (max && *max > kMaxSpelledLength) max.reset();
  if (min && *min > kMaxSpelledLength) min.reset();
  if (!min && !max) return builder.add_text_without(close);
  std::optional<std::u32string> points = decode_utf8(close);
  std::string other = gbnf_class(complement_ranges({{points->front(), points->front()}}));
  return gbnf_repeat(other, min.value_or(0), max);
}

bool is_raw_string(const Json& schema) {
  return is_string_type(schema) || string_choices(schema).has_value();
}

// Items in order, required ones always, optional ones possibly left out,
// `separator` between those present. One rule per position, named from
// `hint`, so that the grammar grows with the items and not with the
// subsets of the optional ones.
std::string separated_sequence(const std::vector<std::pair<std::string, bool>>& items,
                               std::string_view separator, const std::string& hint,
                               JsonSchemaGrammarBuilder& builder) {
  if (items.empty()) return "";
  const size_t n = items.size();
  std::string sep = separator.empty() ? "" : gbnf_literal(separator) + " ";
  // after(i): items i.. once something came before; from(i): while nothing has.
  auto after = [&](size_t i) {
    return i == n ? std::string() : hint + "-after-" + std::to_string(i);
  };
  auto from = [&](size_t i) { return hint + "-from-" + std::to_string(i); };
  for (size_t i = n; i-- > 0;) {
    const auto& [item, required] = items[i];
    std::string with = sep + item + " " + after(i + 1);
    builder.add_rule(after(i), required ? with : "( " + with + " )? " + after(i + 1));
    std::string first = item + " " + after(i + 1);
    std::string body = required     ? first
                       : i + 1 == n ? "( " + first + " )?"
                                    : "( " + first + " | " + from(i + 1) + " )";
    builder.add_rule(from(i), body);
  }
  return from(0);
}

class FormatGrammar {
 public:
  FormatGrammar(const CallFormat& format, JsonSchemaGrammarBuilder& builder)
      : format_(format), builder_(builder) {}

  Result<std::string> call(const GrammarTool& tool, const std::string& hint) {
    return names_itself(format_.arguments) ? self_named_call(tool, hint) : named_call(tool, hint);
  }

  // What encloses the calls of the self-named list forms.
  std::string list(const std::string& calls_rule, bool one_call) const {
    std::string open = gbnf_literal(format_.call_open);
    for (const HeaderPiece& piece : format_.header) add(open, {kGap, gbnf_literal(piece.text)});
    std::string close;
    for (std::string_view marker : format_.call_close) add(close, {gbnf_literal(marker)});
    bool listed = format_.arguments != ArgumentsForm::kJsonCall;
    std::string body = calls_rule;
    if (listed) {
      if (!one_call) body += " ( \", \" " + calls_rule + " )*";
      body = "\"[\" " + body + " \"]\"";
    }
    return open + " " + std::string(kGap) + " " + body + close;
  }

 private:
  Result<std::string> self_named_call(const GrammarTool& tool, const std::string& hint) {
    if (format_.arguments == ArgumentsForm::kPythonCallList) return python_call(tool, hint);
    INGOT_ASSIGN_OR_RETURN(std::string arguments,
                           builder_.add_schema(tool.parameters, "args-" + hint));
    if (format_.arguments == ArgumentsForm::kNameKeyedList) {
      return gbnf_literal("{\"" + tool.name + "\": ") + " " + arguments + " \"}\"";
    }
    std::string head = "{\"" + std::string(format_.name_key) + "\": \"" + tool.name + "\", \"" +
                       std::string(format_.arguments_key) + "\": ";
    return gbnf_literal(head) + " " + arguments + " \"}\"";
  }

  Result<std::string> python_call(const GrammarTool& tool, const std::string& hint) {
    std::vector<std::pair<std::string, bool>> items;
    for (const auto& [key, schema] : properties(tool.parameters)) {
      INGOT_ASSIGN_OR_RETURN(std::string value,
                             builder_.add_schema(schema, "arg-" + hint + "-" + key));
      items.emplace_back(gbnf_literal(key + "=") + " " + value, is_required(tool.parameters, key));
    }
    return gbnf_literal(tool.name + "(") + " " +
           separated_sequence(items, ", ", "seq-" + hint, builder_) + " \")\"";
  }

  Result<std::string> named_call(const GrammarTool& tool, const std::string& hint) {
    // Where the prompt wrote the opening, a call's rule starts at its name
    // and further calls are joined by the opening (format_calls_rule).
    std::string rule = format_.opens_reply ? "" : gbnf_literal(format_.call_open);
    for (const HeaderPiece& piece : format_.header) {
      add(rule, {kGap, ""});
      switch (piece.kind) {
        case HeaderPiece::Kind::kLiteral:
          rule += gbnf_literal(piece.text);
          break;
        case HeaderPiece::Kind::kName:
          rule += gbnf_literal(tool.name);
          break;
        case HeaderPiece::Kind::kSkipTo:
          rule += gbnf_literal(std::string(format_.skipped_text) + std::string(piece.text));
          break;
      }
    }
    INGOT_ASSIGN_OR_RETURN(std::string arguments, arguments_rule(tool, hint));
    add(rule, {kGap, arguments});
    for (std::string_view marker : format_.call_close) {
      add(rule, {kGap, gbnf_literal(marker)});
    }
    return rule;
  }

  Result<std::string> arguments_rule(const GrammarTool& tool, const std::string& hint) {
    switch (format_.arguments) {
      case ArgumentsForm::kTagged:
        return tagged_arguments(tool, hint);
      case ArgumentsForm::kGemma:
        return gemma_arguments(tool, hint);
      case ArgumentsForm::kElements:
        return element_members(tool.parameters, "arg-" + hint, 0);
      default:
        return builder_.add_schema(tool.parameters, "args-" + hint);
    }
  }

  std::vector<std::pair<std::string, Json>> properties(const Json& parameters) {
    std::vector<std::pair<std::string, Json>> result;
    auto found = parameters.find("properties");
    if (found == parameters.end() || !found->is_object()) return result;
    for (const auto& [key, schema] : found->items()) result.emplace_back(key, schema);
    return result;
  }

  Result<std::string> tagged_arguments(const GrammarTool& tool, const std::string& hint) {
    const auto& tags = format_.tagged;
    std::vector<std::pair<std::string, bool>> items;
    for (const auto& [key, schema] : properties(tool.parameters)) {
      bool text = is_raw_string(schema);
      std::string item =
          gbnf_literal(std::string(tags.key_open) + key + std::string(tags.key_close));
      if (!tags.attributes_close.empty()) {
        std::string attributes = text ? " string=\"true\"" : " string=\"false\"";
        attributes += tags.attributes_close;
        add(item, {gbnf_literal(attributes)});
      }
      if (!tags.value_open.empty()) add(item, {kGap, gbnf_literal(tags.value_open)});
      if (tags.newline_padded) item += " \"\\n\"";
      if (text) {
        add(item, {raw_string(schema, tags.value_close, builder_)});
      } else {
        INGOT_ASSIGN_OR_RETURN(
            std::string value,
            builder_.add_schema(schema, "arg-" + hint + "-" + gbnf_rule_name(key)));
        add(item, {value});
      }
      if (tags.newline_padded) item += " \"\\n\"";
      add(item, {gbnf_literal(tags.value_close), kGap});
      items.emplace_back("( " + item + " )", is_required(tool.parameters, key));
    }
    return std::string(kGap) + " " + separated_sequence(items, "", "seq-" + hint, builder_);
  }

  Result<std::string> gemma_arguments(const GrammarTool& tool, const std::string& hint) {
    return gemma_members(tool.parameters, "arg-" + hint, 0);
  }

  // An object in Gemma 4's encoding: {key:value,...}, bare keys.
  Result<std::string> gemma_members(const Json& schema, const std::string& hint, int depth) {
    std::vector<std::pair<std::string, bool>> items;
    for (const auto& [key, member] : properties(schema)) {
      INGOT_ASSIGN_OR_RETURN(std::string value,
                             gemma_typed(member, hint + "-" + gbnf_rule_name(key), depth + 1));
      items.emplace_back("( " + gbnf_literal(key + ":") + " " + value + " )",
                         is_required(schema, key));
    }
    return "\"{\" " + separated_sequence(items, ",", hint + "-members", builder_) + " \"}\"";
  }

  // A value in Gemma 4's encoding, as the schema types it: strings between
  // <|"|>, numbers and booleans as JSON writes them, objects and arrays
  // (to a depth) member by member; anything else any Gemma value.
  Result<std::string> gemma_typed(const Json& schema, const std::string& hint, int depth) {
    if (is_raw_string(schema)) {
      return "\"<|\\\"|>\" " + raw_string(schema, "<|\"|>", builder_) + " \"<|\\\"|>\"";
    }
    std::set<std::string> types = chat::tool_calls::schema_types(schema);
    bool one = types.size() == 1 ||
               (types.size() == 2 && types.contains("integer") && types.contains("number"));
    if (one &&
        (types.contains("integer") || types.contains("number") || types.contains("boolean"))) {
      return builder_.add_schema(schema, hint);
    }
    bool nested = one && depth < kMaxNestedDepth;
    if (nested && types.contains("object") && !properties(schema).empty()) {
      return gemma_members(schema, hint, depth);
    }
    if (nested && types.contains("array") && schema.contains("items")) {
      INGOT_ASSIGN_OR_RETURN(std::string item,
                             gemma_typed(schema["items"], hint + "-item", depth + 1));
      return listed(item, length_bound(schema, "minItems").value_or(0),
                    length_bound(schema, "maxItems"));
    }
    return gemma_value();
  }

  // [item,item,...] with between `min` and `max` items.
  static std::string listed(const std::string& item, uint64_t min, std::optional<uint64_t> max) {
    if (max && *max == 0) return "\"[]\"";
    std::optional<uint64_t> more_max;
    if (max) more_max = *max - 1;
    std::string body =
        item + " " + gbnf_repeat("( \",\" " + item + " )", min > 0 ? min - 1 : 0, more_max);
    if (min == 0) body = "( " + body + " )?";
    return "\"[\" " + body + " \"]\"";
  }

  // An object's members as elements, each behind the format's marker.
  Result<std::string> element_members(const Json& schema, const std::string& hint, int depth) {
    std::vector<std::pair<std::string, bool>> items;
    for (const auto& [key, member] : properties(schema)) {
      std::string name = hint + "-" + gbnf_rule_name(key);
      INGOT_ASSIGN_OR_RETURN(std::string value, element_value(member, name, depth + 1));
      items.emplace_back("( " + element(key, value) + " )", is_required(schema, key));
    }
    return separated_sequence(items, "", hint + "-members", builder_);
  }

  std::string element(std::string_view name, const std::string& value) const {
    std::string marker(format_.element_marker);
    std::string rule = gbnf_literal(marker + "<" + std::string(name) + ">");
    add(rule, {value, gbnf_literal(marker + "</" + std::string(name) + ">")});
    return rule;
  }

  // A value as MiniMax M3 writes it: text, nested elements for an object
  // or array the schema describes, JSON for anything else.
  Result<std::string> element_value(const Json& schema, const std::string& hint, int depth) {
    if (is_raw_string(schema)) return raw_string(schema, format_.element_marker, builder_);
    std::set<std::string> types = chat::tool_calls::schema_types(schema);
    bool nested = depth < kMaxNestedDepth && types.size() == 1;
    if (nested && types.contains("object") && !properties(schema).empty()) {
      return element_members(schema, hint, depth);
    }
    if (nested && types.contains("array") && schema.contains("items")) {
      INGOT_ASSIGN_OR_RETURN(std::string item,
                             element_value(schema["items"], hint + "-item", depth + 1));
      return gbnf_repeat("( " + element("item", item) + " )",
                         length_bound(schema, "minItems").value_or(0),
                         length_bound(schema, "maxItems"));
    }
    return builder_.add_schema(schema, hint);
  }

  // Any value in Gemma 4's encoding, for arguments that are objects or
  // arrays (their inner schema is not enforced).
  std::string gemma_value() {
    if (!gemma_rules_) {
      builder_.add_rule("gemma-string",
                        "\"<|\\\"|>\" " + builder_.add_text_without("<|\"|>") + " \"<|\\\"|>\"");
      builder_.add_rule("gemma-key", "[a-zA-Z_] [a-zA-Z0-9_]*");
      builder_.add_rule("gemma-scalar",
                        "\"-\"? [0-9]+ (\".\" [0-9]+)? | \"true\" | \"false\" | \"null\"");
      builder_.add_rule("gemma-value",
                        "gemma-string | gemma-scalar | \"{\" ( gemma-key \":\" gemma-value ( \",\" "
                        "gemma-key \":\" gemma-value )* )? \"}\" | \"[\" ( gemma-value ( \",\" "
                        "gemma-value )* )? \"]\"");
      gemma_rules_ = true;
    }
    return "gemma-value";
  }

  const CallFormat& format_;
  JsonSchemaGrammarBuilder& builder_;
  bool gemma_rules_ = false;
};

}  // namespace

Result<std::string> format_calls_rule(const CallFormat& format,
                                      const std::vector<GrammarTool>& tools, bool one_call,
                                      JsonSchemaGrammarBuilder& builder) {
  FormatGrammar grammar(format, builder);
  std::string alternatives;
  for (size_t i = 0; i < tools.size(); ++i) {
    std::string hint = std::to_string(i) + "-" + gbnf_rule_name(tools[i].name);
    Result<std::string> call = grammar.call(tools[i], hint);
    if (!call.ok()) {
      Error error = call.error();
      error.add_context("in the parameters of tool '" + tools[i].name + "'");
      return error;
    }
    builder.add_rule("call-" + hint, *call);
    append_separated(alternatives, " | ", "call-" + hint);
  }
  builder.add_rule("any-call", alternatives);
  one_call = one_call || format.single_call;
  if (names_itself(format.arguments)) {
    std::string list = grammar.list("any-call", one_call);
    if (one_call || format.arguments != ArgumentsForm::kJsonCall) return list;
    return list + " ( \"\\n\"? " + list + " )*";
  }
  std::string joint = format.opens_reply ? gbnf_literal(format.call_open) : std::string(kGap);
  std::string calls = "any-call";
  if (!one_call) add(calls, {"(", joint, "any-call )*"});
  if (format.section_open.empty()) return calls;
  std::string section = gbnf_literal(format.section_open);
  add(section, {kGap, calls});
  if (!format.section_close.empty()) add(section, {kGap, gbnf_literal(format.section_close)});
  return section;
}

std::vector<std::string> format_triggers(const CallFormat& format) {
  if (!format.section_open.empty()) return {std::string(format.section_open)};
  return {std::string(format.call_open)};
}

}  // namespace ingot::sampling::grammar
