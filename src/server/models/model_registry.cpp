#include "server/models/model_registry.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace ingot::server {
namespace {

// How long a request waits for its model before a 503: a load that takes
// longer has gone wrong.
constexpr std::chrono::minutes kLongestWait{10};

RegistryRefusal refusal(RegistryRefusal::Reason reason, const std::string& name,
                        std::string detail = {}) {
  return {reason, name, std::move(detail)};
}

}  // namespace

std::string_view model_state_name(ModelState state) {
  switch (state) {
    case ModelState::kUnloaded:
      return "unloaded";
    case ModelState::kLoading:
      return "loading";
    case ModelState::kLoaded:
      return "loaded";
  }
  return "unloaded";
}

ModelRegistry::ModelRegistry(asio::io_context& io, ModelCatalog catalog, ModelLoader loader,
                             RegistryLimits limits)
    : io_(io), catalog_(std::move(catalog)), loader_(std::move(loader)), limits_(limits) {
  for (const CatalogEntry& entry : catalog_.entries()) {
    Entry& added = entries_.emplace_back();
    added.entry = &entry;
  }
  loading_thread_ = std::thread([this] { loading_thread_main(); });
  if (limits_.idle_unload.count() > 0) arm_idle_timer();
  for (Entry& entry : entries_) {
    if (entry.entry->settings.pinned && !start_loading(entry)) {
      spdlog::warn("the pinned model {} does not fit beside the others", entry.entry->name);
    }
  }
}

ModelRegistry::~ModelRegistry() {
  shutdown();
}

void ModelRegistry::shutdown() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && !loading_thread_.joinable()) return;
    stopping_ = true;
  }
  wake_.notify_all();
  if (loading_thread_.joinable()) loading_thread_.join();
  if (idle_timer_) idle_timer_->cancel();
  for (Entry& entry : entries_) entry.model.reset();
}

void ModelRegistry::drain() {
  draining_ = true;
  if (idle_timer_) idle_timer_->cancel();
  notify_change();
}

ModelRegistry::Lease::Lease(ModelRegistry* registry, Entry* entry)
    : registry_(registry), entry_(entry) {}

ModelRegistry::Lease::Lease(Lease&& other) noexcept
    : registry_(other.registry_), entry_(std::exchange(other.entry_, nullptr)) {}

ModelRegistry::Lease::~Lease() {
  if (entry_ != nullptr) registry_->release(*entry_);
}

ServedModel& ModelRegistry::Lease::model() const {
  return *entry_->model;
}

asio::awaitable<std::variant<ModelRegistry::Lease, RegistryRefusal>> ModelRegistry::acquire(
    const std::string& name) {
  using Reason = RegistryRefusal::Reason;
  Entry* entry = find(name);
  if (entry == nullptr) co_return refusal(Reason::kUnknownModel, name);
  const int64_t failures_before = entry->failures;
  for (;;) {
    if (entry->state == ModelState::kLoaded) {
      ++entry->in_flight;
      entry->last_used = std::chrono::steady_clock::now();
      co_return Lease(this, entry);
    }
    if (draining_) co_return refusal(Reason::kDraining, name);
    if (entry->failures > failures_before) {
      co_return refusal(Reason::kLoadFailed, name, entry->last_error);
    }
    if (entry->state == ModelState::kUnloaded) start_loading(*entry);
    if (waiting_ >= limits_.max_waiting) co_return refusal(Reason::kTooManyWaiting, name);
    ++waiting_;
    const bool changed = co_await wait_for_change();
    --waiting_;
    if (!changed) co_return refusal(Reason::kLoadTimedOut, name);
  }
}

asio::awaitable<std::optional<RegistryRefusal>> ModelRegistry::load(const std::string& name) {
  auto lease = co_await acquire(name);
  if (auto* refused = std::get_if<RegistryRefusal>(&lease)) co_return std::move(*refused);
  co_return std::nullopt;
}

std::optional<RegistryRefusal> ModelRegistry::unload(const std::string& name) {
  using Reason = RegistryRefusal::Reason;
  Entry* entry = find(name);
  if (entry == nullptr) return refusal(Reason::kUnknownModel, name);
  if (entry->state == ModelState::kUnloaded) return std::nullopt;
  if (entry->entry->settings.pinned) return refusal(Reason::kPinned, name);
  if (entry->state == ModelState::kLoading || entry->in_flight > 0) {
    return refusal(Reason::kBusy, name, entry->in_flight > 0 ? "serving requests" : "loading");
  }
  unload_entry(*entry);
  notify_change();
  return std::nullopt;
}

std::vector<ModelRegistry::Status> ModelRegistry::status() const {
  std::vector<Status> all;
  for (const Entry& e : entries_) {
    all.push_back({e.entry, e.state, e.footprint(), e.in_flight, e.loads, e.unloads, e.model.get(),
                   e.last_used});
  }
  return all;
}

ModelRegistry::Entry* ModelRegistry::find(const std::string& name) {
  const CatalogEntry* wanted = catalog_.find_for_request(name);
  for (Entry& entry : entries_) {
    if (entry.entry == wanted) return &entry;
  }
  return nullptr;
}

bool ModelRegistry::start_loading(Entry& entry) {
  if (!make_room_for(entry)) return false;
  entry.state = ModelState::kLoading;
  spdlog::info("loading model {} from {}", entry.entry->name, entry.entry->path);
  {
    std::lock_guard lock(mutex_);
    to_load_.push_back(&entry);
  }
  wake_.notify_one();
  return true;
}

// Unloads idle models, least recently used first, until `entry` fits the
// count and the memory budget. A model alone is loaded whatever its size.
bool ModelRegistry::make_room_for(const Entry& entry) {
  const uint64_t needed = entry.footprint();
  for (;;) {
    size_t count = 0;
    uint64_t bytes = 0;
    for (const Entry& e : entries_) {
      if (&e == &entry || e.state == ModelState::kUnloaded) continue;
      ++count;
      bytes += e.footprint();
    }
    const bool over_count = limits_.max_loaded > 0 && count + 1 > limits_.max_loaded;
    const bool over_budget = limits_.memory_budget > 0 && bytes + needed > limits_.memory_budget;
    if (!over_count && !over_budget) return true;
    if (count == 0) {
      spdlog::warn("model {} needs {} bytes, more than --memory-budget; loading it alone",
                   entry.entry->name, needed);
      return true;
    }
    Entry* victim = least_recently_used_idle(entry);
    if (victim == nullptr) return false;  // all busy: wait for one to finish
    unload_entry(*victim);
  }
}

ModelRegistry::Entry* ModelRegistry::least_recently_used_idle(const Entry& except) {
  Entry* oldest = nullptr;
  for (Entry& e : entries_) {
    if (&e == &except || e.state != ModelState::kLoaded || e.in_flight > 0 ||
        e.entry->settings.pinned) {
      continue;
    }
    if (oldest == nullptr || e.last_used < oldest->last_used) oldest = &e;
  }
  return oldest;
}

void ModelRegistry::unload_entry(Entry& entry) {
  spdlog::info("unloading model {}", entry.entry->name);
  entry.model.reset();
  entry.state = ModelState::kUnloaded;
  ++entry.unloads;
}

void ModelRegistry::finish_loading(Entry& entry, Result<std::unique_ptr<ServedModel>> loaded) {
  if (loaded.ok()) {
    entry.model = std::move(loaded).value();
    entry.memory_bytes = entry.model->memory_bytes();
    entry.state = ModelState::kLoaded;
    entry.last_used = std::chrono::steady_clock::now();
    ++entry.loads;
    spdlog::info("model {} loaded ({} MiB)", entry.entry->name, entry.memory_bytes >> 20);
  } else {
    entry.state = ModelState::kUnloaded;
    entry.last_error = loaded.error().describe();
    ++entry.failures;
    spdlog::error("model {} failed to load: {}", entry.entry->name, entry.last_error);
  }
  notify_change();
}

void ModelRegistry::release(Entry& entry) {
  --entry.in_flight;
  entry.last_used = std::chrono::steady_clock::now();
  if (entry.in_flight == 0) notify_change();
}

asio::awaitable<bool> ModelRegistry::wait_for_change() {
  auto timer = std::make_shared<asio::steady_timer>(io_, kLongestWait);
  waiters_.push_back(timer);
  boost::system::error_code ec;
  co_await timer->async_wait(asio::redirect_error(asio::use_awaitable, ec));
  co_return ec == asio::error::operation_aborted;
}

// Every waiter looks again: a model loaded or failed, or one went idle and
// so may make room.
void ModelRegistry::notify_change() {
  for (const auto& timer : waiters_) timer->cancel();
  waiters_.clear();
}

void ModelRegistry::arm_idle_timer() {
  if (!idle_timer_) idle_timer_ = std::make_unique<asio::steady_timer>(io_);
  idle_timer_->expires_after(
      std::max<std::chrono::seconds>(limits_.idle_unload / 4, std::chrono::seconds(1)));
  idle_timer_->async_wait([this](boost::system::error_code ec) {
    if (ec || draining_) return;
    unload_idle(std::chrono::steady_clock::now());
    arm_idle_timer();
  });
}

void ModelRegistry::unload_idle(std::chrono::steady_clock::time_point now) {
  if (limits_.idle_unload.count() <= 0) return;
  for (Entry& e : entries_) {
    if (e.state == ModelState::kLoaded && e.in_flight == 0 && !e.entry->settings.pinned &&
        now - e.last_used >= limits_.idle_unload) {
      unload_entry(e);
    }
  }
}

void ModelRegistry::loading_thread_main() {
  for (;;) {
    Entry* entry = nullptr;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !to_load_.empty(); });
      if (stopping_) return;
      entry = to_load_.front();
      to_load_.pop_front();
    }
    auto loaded = loader_(*entry->entry);
    asio::post(io_, [this, entry, loaded = std::move(loaded)]() mutable {
      finish_loading(*entry, std::move(loaded));
    });
  }
}

}  // namespace ingot::server
