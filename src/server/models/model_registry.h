#pragma once
// The models of `serve --models DIR`: which are loaded, loading or not, and
// the requests holding each. A request names its model; an unloaded one is
// loaded on demand on a thread of its own while the others keep serving,
// and the request waits for it (bounded). Loading another unloads the
// least recently used model without requests in flight when the count or
// the memory budget would pass its bound. Everything but the loading runs
// on the io thread.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "server/http/http_types.h"
#include "server/http/router.h"
#include "server/models/model_catalog.h"
#include "server/serving_context.h"
#include "util/status.h"

namespace ingot::server {

// One loaded model: its serving context and the routes bound to it, and
// whatever keeps them alive.
class ServedModel {
 public:
  virtual ~ServedModel() = default;
  virtual ServingContext& context() = 0;
  virtual const Router& routes() const = 0;
  // Its weights and KV cache.
  virtual uint64_t memory_bytes() const = 0;
};

// Loads a catalogue entry; runs on the registry's loading thread.
using ModelLoader = std::function<Result<std::unique_ptr<ServedModel>>(const CatalogEntry&)>;

struct RegistryLimits {
  size_t max_loaded = 0;                // 0: no bound on the count
  uint64_t memory_budget = 0;           // bytes; 0: no bound
  size_t max_waiting = 64;              // requests waiting for a model to load
  std::chrono::seconds idle_unload{0};  // 0: never for idleness alone
};

enum class ModelState { kUnloaded, kLoading, kLoaded };
std::string_view model_state_name(ModelState state);

// Why the registry did not give, load or unload a model; the routes say it
// in HTTP (model_routes.cpp).
struct RegistryRefusal {
  enum class Reason {
    kUnknownModel,    // the catalogue has no such name
    kDraining,        // the server is shutting down
    kLoadFailed,      // detail: the loader's error
    kTooManyWaiting,  // RegistryLimits::max_waiting requests wait already
    kLoadTimedOut,    // the load took longer than a request waits
    kPinned,          // unload: --models-config keeps it loaded
    kBusy,            // unload: it is loading or serving requests (detail says which)
  };
  Reason reason;
  std::string model;
  std::string detail;
};

class ModelRegistry {
  struct Entry;

 public:
  ModelRegistry(asio::io_context& io, ModelCatalog catalog, ModelLoader loader,
                RegistryLimits limits);
  ~ModelRegistry();
  ModelRegistry(const ModelRegistry&) = delete;
  ModelRegistry& operator=(const ModelRegistry&) = delete;

  // A loaded model held by one request: never unloaded while held.
  class Lease {
   public:
    Lease(ModelRegistry* registry, Entry* entry);
    Lease(Lease&& other) noexcept;
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    ServedModel& model() const;

   private:
    ModelRegistry* registry_;
    Entry* entry_;
  };

  // The model named `name`, loaded if need be (the request waits, bounded).
  asio::awaitable<std::variant<Lease, RegistryRefusal>> acquire(const std::string& name);
  // POST /models/load and /models/unload: the same, with nothing held after;
  // a model that is loading, serving or pinned is not unloaded.
  asio::awaitable<std::optional<RegistryRefusal>> load(const std::string& name);
  std::optional<RegistryRefusal> unload(const std::string& name);

  struct Status {
    const CatalogEntry* entry;
    ModelState state;
    uint64_t memory_bytes;  // loaded: measured; else what the last load measured, or the file
    int64_t in_flight;
    int64_t loads;
    int64_t unloads;
    ServedModel* model;  // loaded only
    std::chrono::steady_clock::time_point last_used;
  };
  std::vector<Status> status() const;
  const ModelCatalog& catalog() const { return catalog_; }
  // The server drains: no more loads, the idle timer stops, and requests
  // waiting for a model are answered 503 (io thread).
  void drain();
  // Stops the loading thread and unloads every model.
  void shutdown();
  // Unloads the models idle for RegistryLimits::idle_unload by `now`
  // (pinned ones stay); the idle timer calls it.
  void unload_idle(std::chrono::steady_clock::time_point now);

 private:
  struct Entry {
    const CatalogEntry* entry = nullptr;
    ModelState state = ModelState::kUnloaded;
    std::unique_ptr<ServedModel> model;
    uint64_t memory_bytes = 0;
    int64_t in_flight = 0;
    int64_t loads = 0;
    int64_t unloads = 0;
    int64_t failures = 0;
    std::string last_error;
    std::chrono::steady_clock::time_point last_used{};

    // Its weights and KV cache as its last load measured them, else its file.
    uint64_t footprint() const { return memory_bytes ? memory_bytes : entry->file_bytes; }
  };

  Entry* find(const std::string& name);
  // Starts loading `entry` if room can be made; whether it started.
  bool start_loading(Entry& entry);
  bool make_room_for(const Entry& entry);
  Entry* least_recently_used_idle(const Entry& except);
  void unload_entry(Entry& entry);
  void finish_loading(Entry& entry, Result<std::unique_ptr<ServedModel>> loaded);
  void release(Entry& entry);
  asio::awaitable<bool> wait_for_change();
  void notify_change();
  void arm_idle_timer();
  void loading_thread_main();

  asio::io_context& io_;
  ModelCatalog catalog_;
  ModelLoader loader_;
  RegistryLimits limits_;
  std::deque<Entry> entries_;  // one per catalogue entry, stable addresses
  std::vector<std::shared_ptr<asio::steady_timer>> waiters_;
  size_t waiting_ = 0;
  bool draining_ = false;
  std::unique_ptr<asio::steady_timer> idle_timer_;

  // The loading thread's queue.
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Entry*> to_load_;
  bool stopping_ = false;
  std::thread loading_thread_;
};

}  // namespace ingot::server
