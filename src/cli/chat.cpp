// `ingot chat`: an interactive REPL over the engine with the model's chat
// template. Replies stream as they are generated; the conversation's
// earlier turns stay in the slot's cache, so each turn prefills only what
// is new. Ctrl-C stops the current reply, not the program.

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <thread>

#include "cli/commands.h"
#include "cli/loaded_model.h"
#include "engine/engine.h"
#include "engine/prompt_tokens.h"

namespace ingot::cli {
namespace {

struct ChatOptions {
  std::string model_path;
  std::string system;
  int32_t max_tokens = -1;
  float temperature = 0.8f;
  uint64_t seed = 0;
  int32_t threads = 0;
  int64_t context_size = 0;
  bool mtp = false;
  int32_t draft_max = 3;
};

// Turns SIGINT into "stop the current reply": a thread waits for the signal
// (blocked everywhere else) and cancels whatever request is running.
class InterruptWatch {
 public:
  InterruptWatch() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGUSR1);  // wakes the thread to stop
    pthread_sigmask(SIG_BLOCK, &set_, nullptr);
    thread_ = std::thread([this] { watch(); });
  }
  ~InterruptWatch() {
    stopping_ = true;
    pthread_kill(thread_.native_handle(), SIGUSR1);
    thread_.join();
  }

  void set_current(engine::RequestHandle* handle) {
    std::lock_guard lock(mutex_);
    current_ = handle;
  }
  bool interrupted() { return interrupted_.exchange(false); }

 private:
  void watch() {
    for (;;) {
      int signal = 0;
      sigwait(&set_, &signal);
      if (stopping_) return;
      if (signal != SIGINT) continue;
      std::lock_guard lock(mutex_);
      interrupted_ = true;
      if (current_ != nullptr) current_->cancel();
    }
  }

  sigset_t set_;
  std::thread thread_;
  std::mutex mutex_;
  engine::RequestHandle* current_ = nullptr;
  std::atomic<bool> interrupted_{false};
  std::atomic<bool> stopping_{false};
};

class ChatSession {
 public:
  ChatSession(const LoadedModel& loaded, engine::Engine& engine, const ChatOptions& options)
      : loaded_(loaded), engine_(engine), options_(options) {
    reset();
  }

  void reset() {
    messages_ = nlohmann::ordered_json::array();
    if (!system_.empty()) messages_.push_back({{"role", "system"}, {"content", system_}});
  }
  void set_system(std::string text) {
    system_ = std::move(text);
    reset();
  }

  // One user turn: renders, submits, streams the reply to stdout.
  void reply(const std::string& user_text, InterruptWatch& interrupts) {
    messages_.push_back({{"role", "user"}, {"content", user_text}});
    chat::ChatPromptInput input;
    input.messages = messages_;
    input.bos_token = loaded_.bos_text;
    input.eos_token = loaded_.eos_text;
    auto prompt = loaded_.chat_template().render(input);
    if (!prompt.ok()) {
      std::printf("error: %s\n", prompt.error().describe().c_str());
      messages_.erase(messages_.size() - 1);
      return;
    }
    engine::GenerationRequest request;
    request.prompt =
        engine::tokenize_rendered_prompt(*loaded_.tokenizer, *prompt, loaded_.bos_text);
    request.sampling.temperature = options_.temperature;
    request.sampling.seed = options_.seed + turn_++;
    request.max_tokens = options_.max_tokens;
    request.canvas = loaded_.canvas_defaults();
    if (request.canvas) request.canvas->seed = static_cast<uint32_t>(request.sampling.seed);
    if (loaded_.reasoning_tags) {
      request.reasoning = loaded_.reasoning_tags;
      request.prompt_opens_reasoning =
          engine::prompt_opens_reasoning(*prompt, *loaded_.reasoning_tags);
    }
    auto handle = engine_.submit(std::move(request));
    if (!handle.ok()) {
      std::printf("error: %s\n", handle.error().describe().c_str());
      messages_.erase(messages_.size() - 1);
      return;
    }
    interrupts.set_current(&*handle);
    drafts_before_ = engine_.stats();
    std::string content = stream(*handle);
    interrupts.set_current(nullptr);
    messages_.push_back({{"role", "assistant"}, {"content", content}});
  }

 private:
  std::string stream(engine::RequestHandle& handle) {
    std::string content;
    bool in_reasoning = false;
    for (;;) {
      engine::Event event = handle.next();
      if (auto* text = std::get_if<engine::TextEvent>(&event)) {
        if (!text->reasoning.empty()) {
          if (!in_reasoning) std::fputs("[thinking] ", stdout);
          in_reasoning = true;
          std::fputs(text->reasoning.c_str(), stdout);
        }
        if (!text->content.empty()) {
          if (in_reasoning) std::fputs("\n[answer] ", stdout);
          in_reasoning = false;
          std::fputs(text->content.c_str(), stdout);
          content += text->content;
        }
        std::fflush(stdout);
      } else if (auto* finish = std::get_if<engine::FinishEvent>(&event)) {
        print_figures(*finish);
        return content;
      } else {
        std::printf("\nerror: %s\n", std::get<engine::ErrorEvent>(event).error.describe().c_str());
        return content;
      }
    }
  }

  void print_figures(const engine::FinishEvent& finish) const {
    const engine::Usage& u = finish.usage;
    double decode_s = (u.total_ms - u.time_to_first_token_ms) / 1000.0;
    double rate =
        u.completion_tokens > 1 && decode_s > 0 ? (u.completion_tokens - 1) / decode_s : 0;
    if (finish.reason == engine::FinishReason::kCancelled) std::fputs(" [stopped]", stdout);
    std::printf("\n[%lld tokens, %.1f tok/s, prompt %lld tokens (%lld cached), ",
                static_cast<long long>(u.completion_tokens), rate,
                static_cast<long long>(u.prompt_tokens), static_cast<long long>(u.cached_tokens));
    if (options_.mtp) {
      // The engine's counters, which may lag the reply's last step.
      const engine::EngineStats now = engine_.stats();
      std::printf("drafts %lld of %lld accepted, ",
                  static_cast<long long>(now.accepted_drafts - drafts_before_.accepted_drafts),
                  static_cast<long long>(now.drafted_tokens - drafts_before_.drafted_tokens));
    }
    std::printf("first token %.0f ms]\n", u.time_to_first_token_ms);
    std::fflush(stdout);
  }

  const LoadedModel& loaded_;
  engine::Engine& engine_;
  const ChatOptions& options_;
  std::string system_;
  nlohmann::ordered_json messages_;
  uint64_t turn_ = 0;
  engine::EngineStats drafts_before_;
};

int chat(const ChatOptions& options) {
  InterruptWatch interrupts;  // before any thread starts, so all inherit the mask
  auto loaded = LoadedModel::load(options.model_path);
  if (!loaded.ok()) {
    std::fprintf(stderr, "ingot chat: %s\n", loaded.error().describe().c_str());
    return 1;
  }
  engine::EngineOptions engine_options;
  engine_options.parallel = 1;
  engine_options.threads = options.threads;
  engine_options.context_size = options.context_size;
  if (options.mtp) engine_options.draft_tokens = options.draft_max;
  auto engine = engine::Engine::start(*loaded->model, *loaded->tokenizer, engine_options);
  if (!engine.ok()) {
    std::fprintf(stderr, "ingot chat: %s\n", engine.error().describe().c_str());
    return 1;
  }
  ChatSession session(*loaded, **engine, options);
  if (!options.system.empty()) session.set_system(options.system);
  std::printf("ingot chat: %s. /system TEXT, /reset, /quit; Ctrl-C stops a reply.\n",
              loaded->model->config().name.c_str());
  std::string line;
  for (;;) {
    std::fputs("> ", stdout);
    std::fflush(stdout);
    if (!std::getline(std::cin, line)) break;
    interrupts.interrupted();  // a Ctrl-C at the prompt is forgotten
    if (line == "/quit" || line == "/exit") break;
    if (line == "/reset") {
      session.reset();
      std::puts("[conversation cleared]");
    } else if (line.rfind("/system ", 0) == 0) {
      session.set_system(line.substr(8));
      std::puts("[system prompt set; conversation cleared]");
    } else if (!line.empty()) {
      session.reply(line, interrupts);
    }
  }
  std::puts("");
  return 0;
}

}  // namespace

void register_chat(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ChatOptions>();
  CLI::App* command = app.add_subcommand("chat", "Chat with a model in the terminal");
  command->add_option("-m,--model", options->model_path, "GGUF model file")->required();
  command->add_option("--system", options->system, "System prompt");
  command->add_option("-n,--max-tokens", options->max_tokens, "Tokens per reply (-1: no limit)")
      ->capture_default_str();
  command->add_option("--temp", options->temperature, "Temperature (0: greedy)")
      ->capture_default_str();
  command->add_option("--seed", options->seed, "Seed of the first reply")->capture_default_str();
  command->add_option("-t,--threads", options->threads, "Compute threads (0: one per core)")
      ->capture_default_str();
  command
      ->add_option("-c,--ctx-size", options->context_size, "Context (0: the model's, at most 4096)")
      ->capture_default_str();
  command->add_flag("--mtp", options->mtp,
                    "Self-speculative decoding with the model's multi-token-prediction block "
                    "(the same replies, sooner when its drafts are accepted)");
  command->add_option("--draft-max", options->draft_max, "Tokens drafted per step with --mtp")
      ->capture_default_str();
  command->callback([options, &exit_code] { exit_code = chat(*options); });
}

}  // namespace ingot::cli
