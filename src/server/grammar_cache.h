#pragma once
// Compiled grammars by their GBNF text, shared between requests. The
// engine caches allowed-token masks per Grammar object, so a client that
// sends the same schema again (or json_object, the same text every time)
// starts with warm masks instead of a cold cache, and skips the parse.

#include <atomic>
#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "sampling/grammar/grammar.h"
#include "util/status.h"

namespace ingot::server {

// What one request's compile is told, and tells.
struct GrammarCompileWatch {
  // Set once the request's client has left: a compile under way stops.
  const std::atomic<bool>* cancelled = nullptr;
  // Called before a grammar the cache lacks is compiled, which may take
  // long; on the thread that compiles.
  std::function<void()> before_compile;
};

class GrammarCache {
 public:
  explicit GrammarCache(size_t capacity = 64) : capacity_(capacity) {}

  // The compiled grammar of `gbnf`, parsed on first use; parse errors
  // (and a compile stopped by `watch`) are not cached.
  Result<std::shared_ptr<const sampling::grammar::Grammar>> get(
      const std::string& gbnf, const GrammarCompileWatch& watch = {});

  size_t size() const;

 private:
  using Entry = std::pair<std::string, std::shared_ptr<const sampling::grammar::Grammar>>;

  size_t capacity_;
  mutable std::mutex mutex_;
  std::list<Entry> recent_;  // most recently used first
  std::unordered_map<std::string, std::list<Entry>::iterator> by_text_;
};

}  // namespace ingot::server
