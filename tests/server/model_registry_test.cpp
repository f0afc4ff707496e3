// The registry of `serve --models`: models load on demand, are held while
// leased, make room for each other by the budget, stay when pinned, go
// when idle, and a load that fails answers every request waiting on it.
// The loader is a fake: models of a given size, or an error, released by
// the test when it holds a load back.

#include "server/models/model_registry.h"

#include <gtest/gtest.h>

#include <future>
#include <map>
#include <optional>

namespace ingot::server {
namespace {

using Reason = RegistryRefusal::Reason;
using Clock = std::chrono::steady_clock;

class FakeModel : public ServedModel {
 public:
  explicit FakeModel(uint64_t bytes) : bytes_(bytes) {}
  ServingContext& context() override { return context_; }
  const Router& routes() const override { return routes_; }
  uint64_t memory_bytes() const override { return bytes_; }

 private:
  ServingContext context_;
  Router routes_;
  uint64_t bytes_;
};

// Loads every model as `bytes` of memory, except those told to fail; a
// model held back waits until the test releases it.
class FakeLoader {
 public:
  void fail(const std::string& name, std::string message) { failures_[name] = std::move(message); }
  void succeed(const std::string& name) { failures_.erase(name); }
  void hold_back(const std::string& name) {
    held_[name].second = held_[name].first.get_future().share();
  }
  void release(const std::string& name) { held_.at(name).first.set_value(); }

  ModelLoader loader(uint64_t bytes) {
    // The held loads are named before the registry starts loading; the
    // loading thread only waits on their futures.
    return [this, bytes](const CatalogEntry& entry) -> Result<std::unique_ptr<ServedModel>> {
      if (auto held = held_.find(entry.name); held != held_.end()) held->second.second.wait();
      if (auto failure = failures_.find(entry.name); failure != failures_.end()) {
        return invalid_format(failure->second);
      }
      ++loads;
      return std::unique_ptr<ServedModel>(std::make_unique<FakeModel>(bytes));
    };
  }

  std::atomic<int> loads{0};

 private:
  std::map<std::string, std::string> failures_;
  std::map<std::string, std::pair<std::promise<void>, std::shared_future<void>>> held_;
};

CatalogEntry entry(const std::string& name, uint64_t file_bytes = 100, bool pinned = false) {
  CatalogEntry e;
  e.name = name;
  e.path = "/models/" + name + ".gguf";
  e.file_bytes = file_bytes;
  e.settings.pinned = pinned;
  return e;
}

// Starts `awaitable` on the io context; its result lands in `result`.
template <typename T>
void start(asio::io_context& io, asio::awaitable<T> awaitable, std::optional<T>& result) {
  auto store = [](asio::awaitable<T> a, std::optional<T>& out) -> asio::awaitable<void> {
    out.emplace(co_await std::move(a));
  };
  asio::co_spawn(io, store(std::move(awaitable), result), [](std::exception_ptr error) {
    if (error) std::rethrow_exception(error);
  });
}

// Runs the io context until `awaitable` completes, and gives its result.
template <typename T>
T run(asio::io_context& io, asio::awaitable<T> awaitable) {
  std::optional<T> result;
  start(io, std::move(awaitable), result);
  while (!result) io.run_one();
  return std::move(*result);
}

ModelRegistry::Status status_of(const ModelRegistry& registry, const std::string& name) {
  for (const ModelRegistry::Status& s : registry.status()) {
    if (s.entry->name == name) return s;
  }
  ADD_FAILURE() << "no model " << name;
  return {};
}

ModelState state_of(const ModelRegistry& registry, const std::string& name) {
  return status_of(registry, name).state;
}

// The io context never runs out of work, so that run_one waits for the
// loading thread's answer instead of returning at once.
class ModelRegistryTest : public ::testing::Test {
 protected:
  asio::io_context io;
  asio::executor_work_guard<asio::io_context::executor_type> work{io.get_executor()};
  FakeLoader fake;
};

Reason reason_of(const std::optional<RegistryRefusal>& refused) {
  EXPECT_TRUE(refused.has_value());
  return refused ? refused->reason : Reason::kUnknownModel;
}

TEST_F(ModelRegistryTest, LoadsOnDemandAndKeepsALeasedModel) {
  ModelRegistry registry(io, ModelCatalog::of_entries({entry("a")}), fake.loader(100), {});
  EXPECT_EQ(state_of(registry, "a"), ModelState::kUnloaded);
  {
    auto lease = run(io, registry.acquire("a"));
    ASSERT_TRUE(std::holds_alternative<ModelRegistry::Lease>(lease));
    EXPECT_EQ(std::get<ModelRegistry::Lease>(lease).model().memory_bytes(), 100u);
    EXPECT_EQ(state_of(registry, "a"), ModelState::kLoaded);
    EXPECT_EQ(status_of(registry, "a").in_flight, 1);
    const std::optional<RegistryRefusal> busy = registry.unload("a");
    ASSERT_EQ(reason_of(busy), Reason::kBusy);
    EXPECT_EQ(busy->detail, "serving requests");
  }
  EXPECT_EQ(status_of(registry, "a").in_flight, 0);
  EXPECT_FALSE(registry.unload("a").has_value());
  EXPECT_EQ(state_of(registry, "a"), ModelState::kUnloaded);
  EXPECT_EQ(status_of(registry, "a").unloads, 1);
  EXPECT_EQ(fake.loads, 1);
}

TEST_F(ModelRegistryTest, RefusesANameTheCatalogueLacks) {
  ModelRegistry registry(io, ModelCatalog::of_entries({entry("a")}), fake.loader(100), {});
  auto lease = run(io, registry.acquire("b"));
  ASSERT_TRUE(std::holds_alternative<RegistryRefusal>(lease));
  EXPECT_EQ(std::get<RegistryRefusal>(lease).reason, Reason::kUnknownModel);
  EXPECT_EQ(std::get<RegistryRefusal>(lease).model, "b");
  EXPECT_EQ(reason_of(registry.unload("b")), Reason::kUnknownModel);
  EXPECT_EQ(fake.loads, 0);
}

TEST_F(ModelRegistryTest, UnloadsTheLeastRecentlyUsedIdleModelToStayInsideTheBudget) {
  RegistryLimits limits;
  limits.memory_budget = 250;  // two models of 100 fit, three do not
  ModelRegistry registry(io, ModelCatalog::of_entries({entry("a"), entry("b"), entry("c")}),
                         fake.loader(100), limits);
  EXPECT_FALSE(run(io, registry.load("a")).has_value());
  EXPECT_FALSE(run(io, registry.load("b")).has_value());
  EXPECT_FALSE(run(io, registry.load("a")).has_value());  // a is now the more recent
  EXPECT_FALSE(run(io, registry.load("c")).has_value());
  EXPECT_EQ(state_of(registry, "a"), ModelState::kLoaded);
  EXPECT_EQ(state_of(registry, "b"), ModelState::kUnloaded);
  EXPECT_EQ(state_of(registry, "c"), ModelState::kLoaded);
  EXPECT_EQ(status_of(registry, "b").unloads, 1);
}

TEST_F(ModelRegistryTest, KeepsAModelThatIsServingWhenAnotherNeedsRoomByCount) {
  RegistryLimits limits;
  limits.max_loaded = 2;
  ModelRegistry registry(io, ModelCatalog::of_entries({entry("a"), entry("b"), entry("c")}),
                         fake.loader(100), limits);
  auto held = run(io, registry.acquire("a"));
  ASSERT_TRUE(std::holds_alternative<ModelRegistry::Lease>(held));
  EXPECT_FALSE(run(io, registry.load("b")).has_value());
  EXPECT_FALSE(run(io, registry.load("c")).has_value());
  EXPECT_EQ(state_of(registry, "a"), ModelState::kLoaded);  // held, though the oldest
  EXPECT_EQ(state_of(registry, "b"), ModelState::kUnloaded);
  EXPECT_EQ(state_of(registry, "c"), ModelState::kLoaded);
}

TEST_F(ModelRegistryTest, LoadsAPinnedModelAtStartAndNeverUnloadsIt) {
  RegistryLimits limits;
  limits.idle_unload = std::chrono::seconds(60);
  ModelRegistry registry(io, ModelCatalog::of_entries({entry("a", 100, /*pinned=*/true)}),
                         fake.loader(100), limits);
  EXPECT_EQ(state_of(registry, "a"), ModelState::kLoading);
  while (state_of(registry, "a") != ModelState::kLoaded) io.run_one();
  EXPECT_EQ(reason_of(registry.unload("a")), Reason::kPinned);
  registry.unload_idle(Clock::now() + std::chrono::hours(1));
  EXPECT_EQ(state_of(registry, "a"), ModelState::kLoaded);
}

TEST_F(ModelRegistryTest, UnloadsAModelIdleForTheIdleTimeAndNoSooner) {
  RegistryLimits limits;
  limits.idle_unload = std::chrono::seconds(60);
  ModelRegistry registry(io, ModelCatalog::of_entries({entry("a"), entry("b")}), fake.loader(100),
                         limits);
  EXPECT_FALSE(run(io, registry.load("a")).has_value());
  EXPECT_FALSE(run(io, registry.load("b")).has_value());
  const Clock::time_point a_used = status_of(registry, "a").last_used;
  const Clock::time_point b_used = status_of(registry, "b").last_used;
  ASSERT_LE(a_used, b_used);
  registry.unload_idle(a_used + std::chrono::seconds(59));
  EXPECT_EQ(state_of(registry, "a"), ModelState::kLoaded);
  EXPECT_EQ(state_of(registry, "b"), ModelState::kLoaded);
  registry.unload_idle(b_used + std::chrono::seconds(60));
  EXPECT_EQ(state_of(registry, "a"), ModelState::kUnloaded);
  EXPECT_EQ(state_of(registry, "b"), ModelState::kUnloaded);
}

TEST_F(ModelRegistryTest, AFailedLoadAnswersEveryRequestWaitingOnItAndALaterOneRetries) {
  fake.fail("a", "not a GGUF file");
  fake.hold_back("a");
  ModelRegistry registry(io, ModelCatalog::of_entries({entry("a")}), fake.loader(100), {});
  std::optional<std::optional<RegistryRefusal>> answers[2];
  for (auto& answer : answers) start(io, registry.load("a"), answer);
  io.poll();  // both requests start the load (once) and wait on it
  EXPECT_EQ(state_of(registry, "a"), ModelState::kLoading);
  EXPECT_FALSE(answers[0] || answers[1]);
  fake.release("a");
  while (!answers[0] || !answers[1]) io.run_one();
  for (const auto& answer : answers) {
    ASSERT_EQ(reason_of(*answer), Reason::kLoadFailed);
    EXPECT_NE((*answer)->detail.find("not a GGUF file"), std::string::npos) << (*answer)->detail;
  }
  EXPECT_EQ(state_of(registry, "a"), ModelState::kUnloaded);
  fake.succeed("a");
  EXPECT_FALSE(run(io, registry.load("a")).has_value());
  EXPECT_EQ(state_of(registry, "a"), ModelState::kLoaded);
}

TEST_F(ModelRegistryTest, RefusesMoreWaitersThanItsBoundAndAnyLoadWhileDraining) {
  fake.hold_back("a");
  RegistryLimits limits;
  limits.max_waiting = 1;
  ModelRegistry registry(io, ModelCatalog::of_entries({entry("a"), entry("b")}), fake.loader(100),
                         limits);
  std::optional<std::optional<RegistryRefusal>> first;
  start(io, registry.load("a"), first);
  io.poll();
  EXPECT_EQ(reason_of(run(io, registry.load("a"))), Reason::kTooManyWaiting);
  registry.drain();  // the waiting request is answered now, not after the load
  while (!first) io.run_one();
  EXPECT_EQ(reason_of(*first), Reason::kDraining);
  EXPECT_EQ(reason_of(run(io, registry.load("b"))), Reason::kDraining);
  fake.release("a");
}

}  // namespace
}  // namespace ingot::server
