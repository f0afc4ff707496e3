#include "server/openai/embedding_request.h"

#include "server/openai/field_validator.h"

namespace ingot::server {
namespace {

using json = nlohmann::ordered_json;

bool is_token_id(const json& value) {
  return (value.is_number_integer() || value.is_number_unsigned()) && !value.is_boolean();
}

bool is_id_list(const json& value) {
  if (!value.is_array() || value.empty()) return false;
  for (const json& id : value) {
    if (!is_token_id(id)) return false;
  }
  return true;
}

// One input at `at` (its index, or -1 for a lone input): a non-empty
// string or list of ids.
std::optional<std::string> read_input(const json& value, const std::string& at,
                                      EmbeddingInput& input) {
  if (value.is_string()) {
    input.text = value.get<std::string>();
    if (input.text.empty()) return at + " must not be an empty string.";
    return std::nullopt;
  }
  if (value.is_array() && value.empty()) return at + " must not be an empty list.";
  if (!is_id_list(value)) return at + " must be a string or a list of token ids.";
  for (const json& id : value) {
    const bool in_range = id.is_number_unsigned()
                              ? id.get<uint64_t>() <= INT32_MAX
                              : id.get<int64_t>() >= 0 && id.get<int64_t>() <= INT32_MAX;
    if (!in_range) return at + " holds an id that is not a token id.";
    const int64_t number =
        id.is_number_unsigned() ? int64_t(id.get<uint64_t>()) : id.get<int64_t>();
    input.ids.push_back(int32_t(number));
  }
  return std::nullopt;
}

void check_input(Validator& v, int64_t max_inputs, EmbeddingRequest& request) {
  const json* input = v.field("input");
  if (v.failed()) return;
  if (input == nullptr) return v.fail("'input' is required.", "input");
  // A lone string or a lone list of ids is one input.
  if (input->is_string() || is_id_list(*input)) {
    EmbeddingInput one;
    if (auto problem = read_input(*input, "'input'", one)) return v.fail(*problem, "input");
    request.inputs.push_back(std::move(one));
    return;
  }
  if (!input->is_array()) {
    return v.fail("'input' must be a string, a list of strings or token ids, or a list of lists.",
                  "input");
  }
  if (input->empty()) return v.fail("'input' must not be an empty list.", "input");
  if (int64_t(input->size()) > max_inputs) {
    return v.fail("'input' holds " + std::to_string(input->size()) + " inputs; at most " +
                      std::to_string(max_inputs) + " are accepted (--max-embedding-inputs).",
                  "input");
  }
  for (size_t i = 0; i < input->size(); ++i) {
    EmbeddingInput one;
    if (auto problem = read_input((*input)[i], "'input[" + std::to_string(i) + "]'", one)) {
      return v.fail(*problem, "input");
    }
    request.inputs.push_back(std::move(one));
  }
}

void check_encoding(Validator& v, EmbeddingRequest& request) {
  const json* format = v.field("encoding_format");
  if (format == nullptr || v.failed()) return;
  if (!format->is_string() || (*format != "float" && *format != "base64")) {
    return v.fail("'encoding_format' must be \"float\" or \"base64\".", "encoding_format");
  }
  request.base64 = *format == "base64";
}

void check_dimensions(Validator& v, EmbeddingRequest& request) {
  const std::optional<int64_t> dimensions = v.integer("dimensions");
  if (!dimensions || v.failed()) return;
  if (*dimensions < 1) return v.fail("'dimensions' must be at least 1.", "dimensions");
  request.dimensions = dimensions;
}

}  // namespace

EmbeddingRequestOrError parse_embedding_request(const json& body, const RequestLimits& limits,
                                                int64_t max_inputs) {
  if (!body.is_object()) return invalid_request("The request body must be a JSON object.");
  Validator v(body);
  EmbeddingRequest request;
  GenerationFields model;
  check_model(v, limits, model);
  request.model = model.model;
  check_input(v, max_inputs, request);
  check_encoding(v, request);
  check_dimensions(v, request);
  request.truncate = v.boolean("truncate").value_or(false);
  if (v.failed()) return v.take_error();
  return request;
}

}  // namespace ingot::server
