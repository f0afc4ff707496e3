#include "server/grammar_cache.h"

#include "sampling/grammar/gbnf_parser.h"

namespace ingot::server {

Result<std::shared_ptr<const sampling::grammar::Grammar>> GrammarCache::get(
    const std::string& gbnf, const GrammarCompileWatch& watch) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = by_text_.find(gbnf); it != by_text_.end()) {
      recent_.splice(recent_.begin(), recent_, it->second);
      return it->second->second;
    }
  }
  // Parsed outside the lock: a large grammar must not hold up other requests.
  if (watch.before_compile) watch.before_compile();
  auto parsed = sampling::grammar::parse_gbnf(gbnf, "root", watch.cancelled);
  if (!parsed.ok()) return parsed.error();
  std::lock_guard lock(mutex_);
  if (auto it = by_text_.find(gbnf); it != by_text_.end()) return it->second->second;
  recent_.emplace_front(gbnf, *parsed);
  by_text_[gbnf] = recent_.begin();
  if (recent_.size() > capacity_) {
    by_text_.erase(recent_.back().first);
    recent_.pop_back();
  }
  return *parsed;
}

size_t GrammarCache::size() const {
  std::lock_guard lock(mutex_);
  return recent_.size();
}

}  // namespace ingot::server
