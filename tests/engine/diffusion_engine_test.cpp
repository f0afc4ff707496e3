// The engine on a diffusion model (tiny-diffusion-gemma, canvases of 32):
// a reply comes a whole canvas at a time, one event per committed canvas;
// a seed reproduces it alone or beside other requests; a reply's later
// canvases follow the earlier ones in the cache; cancelling mid-canvas
// frees the slot; requests of the wrong kind or size are refused.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "engine/engine.h"
#include "engine/suite_model.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::engine {
namespace {

class DiffusionEngineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (::ingot::testing::shared_dir().empty()) return;
    suite_.load_file(::ingot::testing::synthetic_model("tiny-diffusion-gemma", "f16"));
  }
  static void TearDownTestSuite() { suite_.reset(); }

  void SetUp() override { INGOT_REQUIRE_SHARED(); }

  static int64_t canvas() { return suite_.model->config().diffusion.canvas_length; }

  // Few steps a canvas: the tests are about the loop, not its quality.
  static GenerationRequest denoised(const std::string& text, int32_t max_tokens, uint32_t seed,
                                    int64_t steps = 2) {
    GenerationRequest request;
    request.prompt = suite_.tokenizer->encode(text, /*add_special=*/true, /*parse_special=*/true);
    request.max_tokens = max_tokens;
    sampling::DenoiserParams params;
    params.seed = seed;
    params.max_steps = steps;
    request.canvas = params;
    return request;
  }

  static std::unique_ptr<Engine> start(int32_t parallel, int64_t context = 0) {
    EngineOptions options;
    options.parallel = parallel;
    options.threads = 2;
    options.context_size = context;
    auto engine = Engine::start(*suite_.model, *suite_.tokenizer, options);
    EXPECT_TRUE(engine.ok());
    return std::move(engine).value();
  }

  static inline SuiteModel suite_;
};

// The events of a request, text events counted, until its end.
struct EventLog {
  int text_events = 0;
  std::vector<int32_t> tokens;
  std::optional<FinishEvent> finish;
};

EventLog read_events(RequestHandle handle) {
  EventLog log;
  for (;;) {
    Event event = handle.next();
    if (auto* text = std::get_if<TextEvent>(&event)) {
      ++log.text_events;
      for (const GeneratedToken& t : text->tokens) log.tokens.push_back(t.id);
    } else if (auto* finish = std::get_if<FinishEvent>(&event)) {
      log.finish = *finish;
      return log;
    } else {
      ADD_FAILURE() << std::get<ErrorEvent>(event).error.describe();
      return log;
    }
  }
}

TEST_F(DiffusionEngineTest, AReplyComesOneEventPerCommittedCanvasCutAtMaxTokens) {
  auto engine = start(1);
  const int32_t max_tokens = int32_t(canvas() + canvas() / 2);
  EventLog log = read_events(*engine->submit(denoised("Once upon a time", max_tokens, 7)));
  ASSERT_TRUE(log.finish.has_value());
  // A random model's canvas rarely holds an end-of-generation token; when
  // it does, the reply ends there.
  if (log.finish->reason == FinishReason::kLength) {
    EXPECT_EQ(int64_t(log.tokens.size()), max_tokens);
    EXPECT_EQ(log.text_events, 2);
  } else {
    EXPECT_LT(int64_t(log.tokens.size()), max_tokens);
  }
  EXPECT_EQ(log.finish->usage.completion_tokens, int64_t(log.tokens.size()));
}

TEST_F(DiffusionEngineTest, ASeedGivesTheSameReplyAloneAndBesideOthers) {
  const auto one_canvas = int32_t(canvas());
  std::vector<int32_t> alone;
  {
    auto engine = start(1);
    alone = read_events(*engine->submit(denoised("The little dog", one_canvas, 11))).tokens;
  }
  auto engine = start(2);
  RequestHandle a = *engine->submit(denoised("Lily wanted to", one_canvas, 5));
  RequestHandle b = *engine->submit(denoised("The little dog", one_canvas, 11));
  EventLog other = read_events(std::move(a));
  EXPECT_EQ(read_events(std::move(b)).tokens, alone);
  EXPECT_FALSE(other.tokens.empty());
  // Another seed denoises another canvas.
  EXPECT_NE(read_events(*engine->submit(denoised("The little dog", one_canvas, 12))).tokens, alone);
}

// The first canvas is committed to the cache before the second is
// denoised: the cells in use are the prompt's and the first canvas's.
TEST_F(DiffusionEngineTest, ASecondCanvasFollowsTheFirstInTheCache) {
  auto engine = start(1);
  GenerationRequest request = denoised("One day, a bird", 2 * int32_t(canvas()), 3);
  const auto prompt = int64_t(request.prompt.size());
  EventLog log = read_events(*engine->submit(std::move(request)));
  ASSERT_TRUE(log.finish.has_value());
  if (log.finish->reason != FinishReason::kLength) GTEST_SKIP() << "the first canvas ended it";
  EXPECT_EQ(engine->stats().kv_cells_used, prompt + canvas());
}

TEST_F(DiffusionEngineTest, CancellingMidCanvasFreesTheSlot) {
  auto engine = start(1);
  RequestHandle handle = *engine->submit(denoised("Tom and Sue went", 512, 9, /*steps=*/1000));
  handle.cancel();
  EventLog log = read_events(std::move(handle));
  ASSERT_TRUE(log.finish.has_value());
  EXPECT_EQ(log.finish->reason, FinishReason::kCancelled);
  // The slot takes the next request.
  EventLog next = read_events(*engine->submit(denoised("Mom said that", 8, 1)));
  ASSERT_TRUE(next.finish.has_value());
  EXPECT_NE(next.finish->reason, FinishReason::kCancelled);
}

TEST_F(DiffusionEngineTest, RefusesTokenByTokenRequestsAndRepliesPastTheContext) {
  auto engine = start(1, /*context=*/64);
  GenerationRequest plain = denoised("Once upon a time", 8, 1);
  plain.canvas.reset();
  auto refused = engine->submit(std::move(plain));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind(), ErrorKind::kInvalidArgument);
  // 40 tokens take two canvases of 32: with the prompt, past 64.
  auto too_long = engine->submit(denoised("Once upon a time", 40, 1));
  ASSERT_FALSE(too_long.ok());
  EXPECT_EQ(too_long.error().kind(), ErrorKind::kContextLengthExceeded);
  EXPECT_TRUE(engine->submit(denoised("Once upon a time", 8, 1)).ok());
}

}  // namespace
}  // namespace ingot::engine
