#include "server/openai/chat_request.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ingot::server {
namespace {

using json = nlohmann::json;

// Each check either leaves `error` empty or fills it with the first problem.
class Validator {
 public:
  explicit Validator(const json& body) : body_(body) {}

  bool failed() const { return error_.has_value(); }
  ApiError take_error() { return std::move(*error_); }

  void fail(std::string message, std::string param, std::optional<std::string> code = {}) {
    if (!error_) error_ = invalid_request(std::move(message), std::move(param), std::move(code));
  }
  void fail_with(ApiError error) {
    if (!error_) error_ = std::move(error);
  }

  // A field that is absent or null counts as not given.
  const json* field(const char* name) const {
    auto it = body_.find(name);
    if (it == body_.end() || it->is_null()) return nullptr;
    return &*it;
  }

  std::optional<float> number_in(const char* name, double lo, double hi, bool lo_open = false) {
    const json* v = field(name);
    if (v == nullptr || failed()) return std::nullopt;
    if (!v->is_number()) {
      fail(std::string("'") + name + "' must be a number.", name);
      return std::nullopt;
    }
    double x = v->get<double>();
    bool below = lo_open ? x <= lo : x < lo;
    if (!std::isfinite(x) || below || x > hi) {
      fail(std::string("'") + name + "' must be " + (lo_open ? "greater than " : "between ") +
               format_number(lo) + (lo_open ? " and at most " : " and ") + format_number(hi) +
               ", got " + v->dump() + ".",
           name);
      return std::nullopt;
    }
    return static_cast<float>(x);
  }

  std::optional<int64_t> integer(const char* name) {
    const json* v = field(name);
    if (v == nullptr || failed()) return std::nullopt;
    if (v->is_boolean() || !(v->is_number_integer() || v->is_number_unsigned())) {
      fail(std::string("'") + name + "' must be an integer.", name);
      return std::nullopt;
    }
    if (v->is_number_unsigned() &&
        v->get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      fail(std::string("'") + name + "' is too large.", name);
      return std::nullopt;
    }
    return v->get<int64_t>();
  }

  std::optional<bool> boolean(const char* name) {
    const json* v = field(name);
    if (v == nullptr || failed()) return std::nullopt;
    if (!v->is_boolean()) {
      fail(std::string("'") + name + "' must be a boolean.", name);
      return std::nullopt;
    }
    return v->get<bool>();
  }

 private:
  static std::string format_number(double x) {
    json j = x;
    if (x == std::floor(x) && std::fabs(x) < 1e15) j = static_cast<int64_t>(x);
    return j.dump();
  }

  const json& body_;
  std::optional<ApiError> error_;
};

void check_unsupported_features(Validator& v) {
  if (auto n = v.integer("n"); n && *n != 1) {
    v.fail("Only n=1 is supported.", "n", "unsupported_value");
  }
  const json* tools = v.field("tools");
  if (tools != nullptr && !(tools->is_array() && tools->empty())) {
    v.fail("'tools' is not supported by this server yet (structured output and tool calling).",
           "tools", "unsupported_value");
  }
  if (v.field("tool_choice") != nullptr && tools != nullptr && !tools->empty()) {
    v.fail("'tool_choice' is not supported by this server yet.", "tool_choice",
           "unsupported_value");
  }
  if (const json* format = v.field("response_format")) {
    if (!format->is_object() || !format->contains("type") || !(*format)["type"].is_string()) {
      v.fail("'response_format' must be an object with a string 'type'.", "response_format");
    } else if ((*format)["type"] != "text") {
      v.fail("'response_format' of type '" + (*format)["type"].get<std::string>() +
                 "' is not supported by this server yet; only 'text' is.",
             "response_format.type", "unsupported_value");
    }
  }
}

void check_model(Validator& v, const ChatRequestLimits& limits, ChatRequest& request) {
  const json* model = v.field("model");
  if (v.failed()) return;
  if (model == nullptr) return v.fail("'model' is required.", "model");
  if (!model->is_string()) return v.fail("'model' must be a string.", "model");
  request.model = model->get<std::string>();
  if (std::find(limits.model_ids.begin(), limits.model_ids.end(), request.model) ==
      limits.model_ids.end()) {
    ApiError error{404, "invalid_request_error",
                   "The model '" + request.model + "' does not exist; this server serves '" +
                       (limits.model_ids.empty() ? std::string() : limits.model_ids.front()) + "'.",
                   "model", "model_not_found"};
    v.fail_with(std::move(error));
  }
}

// Content: a string, null, or a list of parts of which only text parts are
// accepted by a text model. Returns the problem, or "" when fine.
std::string check_content(const json& content, const std::string& at) {
  if (content.is_string() || content.is_null()) return "";
  if (!content.is_array()) return at + ".content must be a string or a list of content parts.";
  for (size_t i = 0; i < content.size(); ++i) {
    const json& part = content[i];
    std::string where = at + ".content[" + std::to_string(i) + "]";
    if (!part.is_object() || !part.contains("type") || !part["type"].is_string()) {
      return where + " must be an object with a string 'type'.";
    }
    const std::string type = part["type"];
    if (type == "text") {
      if (!part.contains("text") || !part["text"].is_string()) {
        return where + ".text must be a string.";
      }
    } else if (type == "image_url" || type == "input_audio" || type == "file" ||
               type == "input_image") {
      return where + " is of type '" + type + "', which this text-only model cannot read.";
    } else {
      return where + " has an unknown type '" + type + "'.";
    }
  }
  return "";
}

std::string check_tool_calls(const json& calls, const std::string& at) {
  if (!calls.is_array()) return at + ".tool_calls must be a list.";
  for (size_t i = 0; i < calls.size(); ++i) {
    const json& call = calls[i];
    std::string where = at + ".tool_calls[" + std::to_string(i) + "]";
    if (!call.is_object() || !call.contains("function") || !call["function"].is_object()) {
      return where + " must be an object with a 'function'.";
    }
    const json& fn = call["function"];
    if (!fn.contains("name") || !fn["name"].is_string()) {
      return where + ".function.name must be a string.";
    }
    if (fn.contains("arguments") && !fn["arguments"].is_string() && !fn["arguments"].is_object()) {
      return where + ".function.arguments must be a JSON string.";
    }
  }
  return "";
}

std::string check_message(const json& message, const std::string& at) {
  static const std::vector<std::string> kRoles = {"system", "developer", "user", "assistant",
                                                  "tool"};
  if (!message.is_object()) return at + " must be an object.";
  if (!message.contains("role") || !message["role"].is_string()) {
    return at + ".role must be a string.";
  }
  const std::string role = message["role"];
  if (std::find(kRoles.begin(), kRoles.end(), role) == kRoles.end()) {
    return at + ".role '" + role + "' is not one of system, developer, user, assistant, tool.";
  }
  bool has_tool_calls = message.contains("tool_calls") && !message["tool_calls"].is_null();
  if (!message.contains("content") || message["content"].is_null()) {
    if (role != "assistant") return at + ".content is required for role '" + role + "'.";
  } else if (std::string problem = check_content(message["content"], at); !problem.empty()) {
    return problem;
  }
  if (has_tool_calls) {
    if (role != "assistant") return at + ".tool_calls is only allowed on assistant messages.";
    if (std::string problem = check_tool_calls(message["tool_calls"], at); !problem.empty()) {
      return problem;
    }
  }
  if (role == "tool" &&
      (!message.contains("tool_call_id") || !message["tool_call_id"].is_string())) {
    return at + ".tool_call_id must be a string for role 'tool'.";
  }
  for (const char* text_field : {"name", "reasoning_content"}) {
    if (message.contains(text_field) && !message[text_field].is_null() &&
        !message[text_field].is_string()) {
      return at + "." + text_field + " must be a string.";
    }
  }
  return "";
}

void check_messages(Validator& v, ChatRequest& request) {
  if (v.failed()) return;
  const json* messages = v.field("messages");
  if (messages == nullptr) return v.fail("'messages' is required.", "messages");
  if (!messages->is_array()) return v.fail("'messages' must be a list.", "messages");
  if (messages->empty()) return v.fail("'messages' must not be empty.", "messages");
  for (size_t i = 0; i < messages->size(); ++i) {
    std::string at = "messages[" + std::to_string(i) + "]";
    if (std::string problem = check_message((*messages)[i], at); !problem.empty()) {
      return v.fail(problem, "messages");
    }
  }
  request.messages = *messages;
}

void check_max_tokens(Validator& v, const ChatRequestLimits& limits, ChatRequest& request) {
  auto legacy = v.integer("max_tokens");
  auto modern = v.integer("max_completion_tokens");
  if (v.failed()) return;
  for (auto [value, name] :
       {std::pair{legacy, "max_tokens"}, std::pair{modern, "max_completion_tokens"}}) {
    if (!value) continue;
    if (*value < 1) return v.fail(std::string("'") + name + "' must be at least 1.", name);
    if (*value > limits.max_tokens_cap) {
      return v.fail(std::string("'") + name + "' must be at most " +
                        std::to_string(limits.max_tokens_cap) + " on this server.",
                    name);
    }
  }
  if (legacy && modern && *legacy != *modern) {
    return v.fail("'max_tokens' and 'max_completion_tokens' disagree; send one of them.",
                  "max_completion_tokens");
  }
  request.max_tokens = modern ? modern : legacy;
}

void check_sampling(Validator& v, ChatRequest& request) {
  request.temperature = v.number_in("temperature", 0.0, 2.0);
  request.top_p = v.number_in("top_p", 0.0, 1.0, /*lo_open=*/true);
  if (auto top_k = v.integer("top_k")) {
    if (*top_k < 0 || *top_k > 1'000'000) {
      v.fail("'top_k' must be between 0 and 1000000 (0 turns it off).", "top_k");
    } else {
      request.top_k = static_cast<int32_t>(*top_k);
    }
  }
  request.min_p = v.number_in("min_p", 0.0, 1.0);
  request.repetition_penalty = v.number_in("repetition_penalty", 0.0, 10.0, /*lo_open=*/true);
  request.frequency_penalty = v.number_in("frequency_penalty", -2.0, 2.0);
  request.presence_penalty = v.number_in("presence_penalty", -2.0, 2.0);
  if (auto seed = v.integer("seed")) request.seed = static_cast<uint64_t>(*seed);
}

void check_stop(Validator& v, ChatRequest& request) {
  const json* stop = v.field("stop");
  if (stop == nullptr || v.failed()) return;
  if (stop->is_string()) {
    if (stop->get<std::string>().empty()) return v.fail("'stop' must not be empty.", "stop");
    request.stop = {stop->get<std::string>()};
    return;
  }
  if (!stop->is_array()) return v.fail("'stop' must be a string or a list of strings.", "stop");
  if (stop->size() > 4) return v.fail("'stop' may hold at most 4 strings.", "stop");
  for (const json& s : *stop) {
    if (!s.is_string() || s.get<std::string>().empty()) {
      return v.fail("Every entry of 'stop' must be a non-empty string.", "stop");
    }
    request.stop.push_back(s.get<std::string>());
  }
}

void check_stream(Validator& v, ChatRequest& request) {
  request.stream = v.boolean("stream").value_or(false);
  const json* options = v.field("stream_options");
  if (options == nullptr || v.failed()) return;
  if (!request.stream) {
    return v.fail("'stream_options' is only allowed when 'stream' is true.", "stream_options");
  }
  if (!options->is_object()) return v.fail("'stream_options' must be an object.", "stream_options");
  if (options->contains("include_usage")) {
    const json& usage = (*options)["include_usage"];
    if (!usage.is_boolean()) {
      return v.fail("'stream_options.include_usage' must be a boolean.",
                    "stream_options.include_usage");
    }
    request.include_usage = usage.get<bool>();
  }
}

void check_logprobs(Validator& v, ChatRequest& request) {
  request.logprobs = v.boolean("logprobs").value_or(false);
  auto top = v.integer("top_logprobs");
  if (!top || v.failed()) return;
  if (*top < 0 || *top > 20)
    return v.fail("'top_logprobs' must be between 0 and 20.", "top_logprobs");
  if (!request.logprobs) {
    return v.fail("'top_logprobs' requires 'logprobs' to be true.", "top_logprobs");
  }
  request.top_logprobs = static_cast<int32_t>(*top);
}

void check_logit_bias(Validator& v, ChatRequest& request) {
  const json* bias = v.field("logit_bias");
  if (bias == nullptr || v.failed()) return;
  if (!bias->is_object()) return v.fail("'logit_bias' must be an object.", "logit_bias");
  for (const auto& [key, value] : bias->items()) {
    char* end = nullptr;
    long id = std::strtol(key.c_str(), &end, 10);
    if (key.empty() || *end != '\0' || id < 0 || id > std::numeric_limits<int32_t>::max()) {
      return v.fail("'logit_bias' keys must be token ids, got '" + key + "'.", "logit_bias");
    }
    if (!value.is_number() || value.get<double>() < -100 || value.get<double>() > 100) {
      return v.fail("'logit_bias' values must be numbers between -100 and 100.", "logit_bias");
    }
    request.logit_bias.emplace_back(static_cast<int32_t>(id), value.get<float>());
  }
}

void check_template_kwargs(Validator& v, ChatRequest& request) {
  const json* kwargs = v.field("chat_template_kwargs");
  if (kwargs == nullptr || v.failed()) return;
  if (!kwargs->is_object()) {
    return v.fail("'chat_template_kwargs' must be an object.", "chat_template_kwargs");
  }
  request.chat_template_kwargs = *kwargs;
}

}  // namespace

ChatRequestOrError parse_chat_request(const json& body, const ChatRequestLimits& limits) {
  if (!body.is_object()) return invalid_request("The request body must be a JSON object.");
  Validator v(body);
  ChatRequest request;
  check_unsupported_features(v);
  check_model(v, limits, request);
  check_messages(v, request);
  check_max_tokens(v, limits, request);
  check_sampling(v, request);
  check_stop(v, request);
  check_stream(v, request);
  check_logprobs(v, request);
  check_logit_bias(v, request);
  check_template_kwargs(v, request);
  if (v.failed()) return v.take_error();
  return request;
}

}  // namespace ingot::server
