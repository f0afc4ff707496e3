// `ingot template`: the prompt a chat template makes of a conversation,
// rendered as the server renders it. --bench measures the render cost;
// --parse-reply reads a raw reply as the server would (reasoning, content
// and tool calls in the template's own syntax).

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "chat/chat_template.h"
#include "chat/tool_calls/openai_json.h"
#include "chat/tool_calls/tool_call_family.h"
#include "chat/tool_calls/tool_call_stream.h"
#include "cli/commands.h"
#include "engine/reasoning_splitter.h"
#include "gguf/reader.h"

namespace ingot::cli {
namespace {

using Json = nlohmann::ordered_json;

struct TemplateOptions {
  std::string model;
  std::string template_file;
  std::string chat_template_file;  // overrides the model's template
  std::string messages_file;
  std::string reply_file;
  std::string tools_file;
  std::string kwargs = "{}";
  std::string bos_token;
  std::string eos_token;
  bool no_generation_prompt = false;
  bool bench = false;
};

Result<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error(ErrorKind::kIo, "cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Result<Json> read_json(const std::string& path) {
  INGOT_ASSIGN_OR_RETURN(std::string text, read_text(path));
  Json json = Json::parse(text, nullptr, false);
  if (json.is_discarded()) return invalid_format(path + " is not valid JSON");
  return json;
}

// The template and the BOS/EOS token text stored in a GGUF model.
Status load_from_model(const std::string& path, std::string& source, TemplateOptions& options) {
  INGOT_ASSIGN_OR_RETURN(gguf::GgufFile file, gguf::GgufFile::open(path));
  const gguf::Metadata& metadata = file.metadata();
  if (options.chat_template_file.empty()) {
    if (!metadata.has("tokenizer.chat_template")) {
      return not_found(path + " has no tokenizer.chat_template; pass --chat-template FILE.jinja");
    }
    INGOT_ASSIGN_OR_RETURN(source, metadata.get<std::string>("tokenizer.chat_template"));
  }
  auto tokens = metadata.get<std::vector<std::string_view>>("tokenizer.ggml.tokens");
  if (!tokens.ok()) return Status();
  auto token_text = [&](std::string_view key, std::string& out) {
    if (!out.empty() || !metadata.has(key)) return;
    uint32_t id = metadata.get_or<uint32_t>(key, UINT32_MAX);
    if (id < tokens->size()) out = std::string((*tokens)[id]);
  };
  token_text("tokenizer.ggml.bos_token_id", options.bos_token);
  token_text("tokenizer.ggml.eos_token_id", options.eos_token);
  return Status();
}

// The conversation `ingot template --bench` renders: a system prompt and
// 20 user/assistant turns.
Json bench_conversation() {
  Json messages = Json::array();
  messages.push_back({{"role", "system"}, {"content", "You are a helpful assistant."}});
  for (int turn = 0; turn < 20; ++turn) {
    messages.push_back({{"role", "user"},
                        {"content", "Question " + std::to_string(turn) +
                                        ": how do I sort a list of dicts by a key in Python?"}});
    messages.push_back({{"role", "assistant"},
                        {"content", "Use sorted(items, key=lambda d: d['key']). Turn " +
                                        std::to_string(turn) + "."}});
  }
  return messages;
}

void run_bench(const chat::ChatTemplate& chat_template, const chat::ChatPromptInput& input) {
  using Clock = std::chrono::steady_clock;
  size_t bytes = 0;
  int rounds = 0;
  auto start = Clock::now();
  std::chrono::duration<double> elapsed{};
  do {
    bytes = chat_template.render(input).value().size();
    ++rounds;
    elapsed = Clock::now() - start;
  } while (elapsed.count() < 1.0 || rounds < 10);
  std::printf("%zu messages -> %zu bytes: %.1f us per render (%d rounds)\n", input.messages.size(),
              bytes, elapsed.count() / rounds * 1e6, rounds);
}

int template_failure(const Error& error) {
  std::fprintf(stderr, "error: %s\n", error.describe().c_str());
  return error.kind() == ErrorKind::kTemplateRaised ? 2 : 1;
}

// The reply's reasoning, content and tool calls as the server answers them
// (OpenAI's shape: arguments as a JSON string).
Json parse_reply(const std::string& source, const std::string& reply, const Json& tools) {
  std::string reasoning;
  std::string content = reply;
  if (auto tags = engine::reasoning_tags_for_template(source); tags && !tags->harmony) {
    // A reply that closes a block it did not open began inside it: the
    // prompt opened it.
    bool opened_by_prompt =
        reply.find(tags->close) != std::string::npos && reply.find(tags->open) == std::string::npos;
    engine::ReasoningSplitter splitter(*tags, opened_by_prompt);
    engine::ReasoningSplitter::Output out = splitter.push(reply);
    engine::ReasoningSplitter::Output rest = splitter.flush();
    reasoning = out.reasoning + rest.reasoning;
    content = out.content + rest.content;
  }
  namespace calls = chat::tool_calls;
  calls::ToolCallFamily family = calls::detect_tool_call_family(source);
  calls::ParsedReply parsed = calls::parse_tool_calls(
      content, family, calls::ToolCallIdGenerator(0), calls::ToolSchemas(tools));
  Json tool_calls = Json::array();
  for (const calls::ToolCall& call : parsed.tool_calls) {
    tool_calls.push_back(calls::tool_call_json(call));
  }
  Json answer = {{"content", parsed.content ? Json(*parsed.content) : Json(nullptr)},
                 {"reasoning_content", reasoning.empty() ? Json(nullptr) : Json(reasoning)},
                 {"tool_calls", std::move(tool_calls)}};
  return answer;
}

int run(TemplateOptions options) {
  std::string source;
  if (!options.model.empty()) {
    Status status = load_from_model(options.model, source, options);
    if (!status.ok()) return template_failure(status.error());
  }
  if (!options.template_file.empty() || !options.chat_template_file.empty()) {
    Result<std::string> text = read_text(options.template_file.empty() ? options.chat_template_file
                                                                       : options.template_file);
    if (!text.ok()) return template_failure(text.error());
    source = std::move(text).value();
  }
  Result<chat::ChatTemplate> chat_template = chat::ChatTemplate::parse(source);
  if (!chat_template.ok()) return template_failure(chat_template.error());

  chat::ChatPromptInput input;
  input.add_generation_prompt = !options.no_generation_prompt;
  input.bos_token = options.bos_token;
  input.eos_token = options.eos_token;
  input.extra_kwargs = Json::parse(options.kwargs, nullptr, false);
  if (!input.extra_kwargs.is_object())
    return template_failure(invalid_argument("--kwargs must be a JSON object"));
  if (!options.messages_file.empty()) {
    Result<Json> messages = read_json(options.messages_file);
    if (!messages.ok()) return template_failure(messages.error());
    // Either a list of messages or a whole chat-completions request body.
    if (messages->is_object() && messages->contains("messages")) {
      if (messages->contains("tools")) input.tools = (*messages)["tools"];
      input.messages = (*messages)["messages"];
    } else {
      input.messages = std::move(messages).value();
    }
  } else {
    input.messages = bench_conversation();
  }
  if (!options.tools_file.empty()) {
    Result<Json> tools = read_json(options.tools_file);
    if (!tools.ok()) return template_failure(tools.error());
    input.tools = std::move(tools).value();
  }
  if (!options.reply_file.empty()) {
    Result<std::string> reply = read_text(options.reply_file);
    if (!reply.ok()) return template_failure(reply.error());
    Json answer = parse_reply(source, *reply, input.tools.is_array() ? input.tools : Json::array());
    std::printf("%s\n", answer.dump(2, ' ', false, Json::error_handler_t::replace).c_str());
    return 0;
  }
  if (options.bench) {
    Result<std::string> first = chat_template->render(input);
    if (!first.ok()) return template_failure(first.error());
    run_bench(*chat_template, input);
    return 0;
  }
  Result<std::string> prompt = chat_template->render(input);
  if (!prompt.ok()) return template_failure(prompt.error());
  std::fwrite(prompt->data(), 1, prompt->size(), stdout);
  return 0;
}

}  // namespace

void register_template(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<TemplateOptions>();
  CLI::App* command = app.add_subcommand(
      "template", "Render a conversation with a model's chat template (as the server does)");
  auto* model = command->add_option("--model,-m", options->model, "GGUF model holding the template")
                    ->check(CLI::ExistingFile);
  auto* tmpl = command
                   ->add_option("--template,-t", options->template_file,
                                "A Jinja2 chat template file instead of a model")
                   ->check(CLI::ExistingFile);
  model->excludes(tmpl);
  command
      ->add_option("--chat-template", options->chat_template_file,
                   "A Jinja2 chat template file used instead of the model's own")
      ->check(CLI::ExistingFile);
  command
      ->add_option("--messages", options->messages_file,
                   "JSON: a list of OpenAI messages, or a request body with messages/tools "
                   "(default with --bench: a 20-turn conversation)")
      ->check(CLI::ExistingFile);
  command->add_option("--tools", options->tools_file, "JSON list of OpenAI tool definitions")
      ->check(CLI::ExistingFile);
  command->add_flag("--no-generation-prompt", options->no_generation_prompt,
                    "Do not open an assistant turn at the end");
  command->add_option(
      "--kwargs", options->kwargs,
      "Extra template variables as a JSON object, e.g. '{\"enable_thinking\": false}'");
  command->add_option("--bos", options->bos_token, "BOS token text (default: the model's)");
  command->add_option("--eos", options->eos_token, "EOS token text (default: the model's)");
  command->add_flag("--bench", options->bench, "Measure the render cost (microseconds per render)");
  command
      ->add_option("--parse-reply", options->reply_file,
                   "A raw reply's text: print the content, reasoning and tool calls the server "
                   "would answer for it, as JSON")
      ->check(CLI::ExistingFile);
  command->callback([options, &exit_code] {
    if (options->model.empty() && options->template_file.empty() &&
        options->chat_template_file.empty()) {
      throw CLI::ValidationError("template", "give --model FILE.gguf or --template FILE.jinja");
    }
    if (options->messages_file.empty() && !options->bench && options->reply_file.empty()) {
      throw CLI::ValidationError("template", "give --messages FILE.json or --parse-reply FILE");
    }
    exit_code = run(*options);
  });
}

}  // namespace ingot::cli
