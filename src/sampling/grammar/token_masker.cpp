#include "sampling/grammar/token_masker.h"

#include <algorithm>

#include "sampling/grammar/expansion_memo.h"

namespace ingot::sampling::grammar {
namespace {

// The walk's duplicate check is by frame identity, coarser than the
// matcher's by content, so it may hold a few more stacks for one state.
constexpr size_t kMaxWalkStacks = 4 * kMaxStacks;
// States looping on fewer ASCII characters than this walk the whole trie:
// it prunes them early anyway, and their rest tries would be nearly whole.
constexpr int kMinLoopCharacters = 64;
constexpr size_t kMaxLoopIndexes = 8;

uint64_t state_hash(const GrammarMatcher& matcher) {
  uint64_t h = 0xcbf29ce484222325ull ^ reinterpret_cast<uintptr_t>(&matcher.grammar());
  auto mix = [&h](uint64_t v) { h = (h ^ v) * 0x100000001b3ull; };
  for (const Stack& stack : matcher.stacks()) {
    for (uint32_t position : stack) mix(position);
    mix(0xFFFFFFFFull);
  }
  const PartialUtf8& partial = matcher.partial();
  mix((uint64_t{partial.value} << 16) | (uint64_t{partial.missing} << 8) | partial.length);
  return h ^ (h >> 29);
}

}  // namespace

struct TokenMasker::Entry {
  uint64_t hash;
  std::shared_ptr<const Grammar> grammar;
  std::vector<Stack> stacks;
  PartialUtf8 partial;
  std::shared_ptr<const TokenMask> mask;
};

// Walks the trie depth first, keeping for each depth the stacks that the
// bytes on the path lead to. Stacks are linked frames in one arena that
// grows with depth and is cut back when the walk returns to a shallower
// node, so a step costs a few small writes and never copies a stack.
class TokenMasker::Walker {
 public:
  // Allows in `mask` the tokens of `trie` that `matcher` accepts.
  void run(const GrammarMatcher& matcher, const TokenTrie& trie, TokenMask& mask) {
    grammar_ = &matcher.grammar();
    crowded_ = false;
    if (levels_.size() < trie.max_depth() + 1) levels_.resize(trie.max_depth() + 1);
    if (!start(matcher)) return;
    const auto& nodes = trie.nodes();
    const auto& ids = trie.token_ids();
    for (size_t i = 0; i < nodes.size();) {
      const TokenTrie::Node& node = nodes[i];
      Level& parent = levels_[node.depth - 1];
      Level& child = levels_[node.depth];
      arena_.resize(parent.arena_mark);
      if (!step(parent, node.byte, child)) {
        i = node.subtree_end;
        continue;
      }
      child.arena_mark = arena_.size();
      crowded_ |= child.heads.size() > kMaxStacks;
      auto [begin, end] = trie.tokens_at(i);
      for (uint32_t k = begin; k < end; ++k) mask.allow(ids[k]);
      // With every stack complete, no further byte can be allowed.
      i = child.heads.empty() && child.partial.missing == 0 ? node.subtree_end : i + 1;
    }
  }

  // Whether some path held more stacks than the matcher keeps: the tokens
  // allowed may then include some the matcher refuses.
  bool crowded() const { return crowded_; }

 private:
  struct Frame {
    uint32_t position;
    int32_t next;  // the frame below, -1 at the bottom
  };
  struct Level {
    std::vector<int32_t> heads;  // top frames of the stacks still alive
    PartialUtf8 partial;
    size_t arena_mark = 0;
  };

  bool start(const GrammarMatcher& matcher) {
    arena_.clear();
    Level& root = levels_[0];
    root.heads.clear();
    root.partial = matcher.partial();
    for (const Stack& stack : matcher.stacks()) {
      int32_t below = -1;
      for (uint32_t position : stack) {
        arena_.push_back({position, below});
        below = static_cast<int32_t>(arena_.size() - 1);
      }
      if (below >= 0) root.heads.push_back(below);
    }
    root.arena_mark = arena_.size();
    return !root.heads.empty();
  }

  const CharClass& top_class(int32_t head) const {
    return grammar_->char_class(
        grammar_->element(arena_[static_cast<size_t>(head)].position).value);
  }

  bool step(const Level& parent, uint8_t byte, Level& child) {
    child.heads.clear();
    if (parent.partial.missing > 0) {
      if ((byte & 0xC0) != 0x80) return false;
      PartialUtf8 partial = parent.partial;
      partial.value = (partial.value << 6) | (byte & 0x3F);
      if (--partial.missing > 0) return hold(parent, partial, child);
      if (!valid_code_point(partial.value, partial.length)) return false;
      return advance(parent, partial.value, child);
    }
    int length = utf8_length(byte);
    if (length == 0) return false;
    if (length == 1) return advance(parent, byte, child);
    PartialUtf8 partial{static_cast<char32_t>(byte & (0x7F >> length)),
                        static_cast<uint8_t>(length - 1), static_cast<uint8_t>(length)};
    return hold(parent, partial, child);
  }

  // A character still incomplete: the stacks wait, if any could take it.
  bool hold(const Level& parent, const PartialUtf8& partial, Level& child) {
    char32_t first, last;
    if (!partial_range(partial, first, last)) return false;
    bool possible = std::any_of(parent.heads.begin(), parent.heads.end(), [&](int32_t head) {
      return top_class(head).intersects(first, last);
    });
    if (!possible) return false;
    child.heads = parent.heads;
    child.partial = partial;
    return true;
  }

  bool advance(const Level& parent, char32_t c, Level& child) {
    child.partial = {};
    bool accepting = false;
    int64_t budget = kMaxExpansionSteps;
    expanded_.clear();
    for (int32_t head : parent.heads) {
      if (!top_class(head).contains(c)) continue;
      Frame top = arena_[static_cast<size_t>(head)];
      if (!expand(top.position + 1, top.next, child, accepting, budget)) return false;
    }
    return !child.heads.empty() || accepting;
  }

  // As the matcher's expansion, over linked frames.
  bool expand(uint32_t position, int32_t below, Level& child, bool& accepting, int64_t& budget) {
    work_.clear();
    work_.push_back({position, below});
    while (!work_.empty()) {
      auto [p, tail] = work_.back();
      work_.pop_back();
      for (;;) {
        if (--budget < 0) return false;
        const Element& e = grammar_->element(p);
        if (e.kind == ElementKind::kEnd) {
          if (tail < 0) {
            accepting = true;
            break;
          }
          p = arena_[static_cast<size_t>(tail)].position;
          tail = arena_[static_cast<size_t>(tail)].next;
          continue;
        }
        if (e.kind == ElementKind::kClass) {
          if (!add_head(p, tail, child)) return false;
          break;
        }
        // Frames are shared, so a state met again is this very pair.
        if (!expanded_.insert((uint64_t{p} << 32) | static_cast<uint32_t>(tail))) break;
        int32_t continuation = tail;
        if (grammar_->element(p + 1).kind != ElementKind::kEnd) {
          arena_.push_back({p + 1, tail});
          continuation = static_cast<int32_t>(arena_.size() - 1);
        }
        const auto& alternatives = grammar_->rule(e.value).alternatives;
        for (size_t i = 0; i + 1 < alternatives.size(); ++i)
          work_.push_back({alternatives[i], continuation});
        p = alternatives.back();
        tail = continuation;
      }
    }
    return true;
  }

  bool add_head(uint32_t position, int32_t below, Level& child) {
    for (int32_t head : child.heads) {
      const Frame& f = arena_[static_cast<size_t>(head)];
      if (f.position == position && f.next == below) return true;
    }
    if (child.heads.size() >= kMaxWalkStacks) return false;
    arena_.push_back({position, below});
    child.heads.push_back(static_cast<int32_t>(arena_.size() - 1));
    return true;
  }

  const Grammar* grammar_ = nullptr;
  bool crowded_ = false;
  std::vector<Frame> arena_;
  std::vector<Level> levels_;
  std::vector<std::pair<uint32_t, int32_t>> work_;
  ExpansionMemo expanded_;
};

TokenMasker::TokenMasker(std::shared_ptr<const TokenTrie> trie, size_t cache_capacity)
    : trie_(std::move(trie)),
      capacity_(std::max<size_t>(cache_capacity, 1)),
      walker_(std::make_unique<Walker>()) {}

TokenMasker::~TokenMasker() = default;

void TokenMasker::fill(const GrammarMatcher& matcher, TokenMask& mask) const {
  Walker walker;
  compute(matcher, mask, walker);
}

void TokenMasker::compute(const GrammarMatcher& matcher, TokenMask& mask, Walker& walker) const {
  mask.reset(trie_->vocab_size());
  if (matcher.can_end()) {
    for (int32_t id : trie_->end_of_generation()) mask.allow(id);
  }
  LoopSet loop = find_loop_set(matcher);
  if (loop.ascii_count() < kMinLoopCharacters) {
    walker.run(matcher, *trie_, mask);
  } else {
    auto index = loop_index(loop);
    mask.merge(index->pure);
    walker.run(matcher, *index->rest, mask);
  }
  if (walker.crowded()) keep_only_accepted(matcher, mask);
}

// The walk counts stacks by frame, the matcher by content, and it refuses
// a byte past kMaxStacks: past that many, each token the walk allowed is
// tried on a copy of the matcher, so that the mask never allows a token
// the matcher then refuses.
void TokenMasker::keep_only_accepted(const GrammarMatcher& matcher, TokenMask& mask) const {
  for (const auto& [id, piece] : trie_->pieces()) {
    if (!mask.allows(id)) continue;
    GrammarMatcher copy = matcher;
    if (!copy.accept_bytes(piece)) mask.disallow(id);
  }
}

std::shared_ptr<const LoopIndex> TokenMasker::loop_index(const LoopSet& loop) const {
  std::lock_guard lock(loops_mutex_);
  for (auto it = loops_.begin(); it != loops_.end(); ++it) {
    if (it->first == loop) {
      auto found = std::move(*it);
      loops_.erase(it);
      loops_.push_back(std::move(found));
      return loops_.back().second;
    }
  }
  auto index = std::make_shared<const LoopIndex>(build_loop_index(*trie_, loop));
  if (loops_.size() >= kMaxLoopIndexes) loops_.erase(loops_.begin());
  loops_.emplace_back(loop, index);
  return index;
}

std::shared_ptr<const TokenMask> TokenMasker::mask(const GrammarMatcher& matcher) {
  uint64_t hash = state_hash(matcher);
  std::lock_guard lock(mutex_);
  auto [first, last] = index_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    Entry& entry = *it->second;
    if (entry.grammar.get() == &matcher.grammar() && entry.partial == matcher.partial() &&
        entry.stacks == matcher.stacks()) {
      ++stats_.hits;
      entries_.splice(entries_.begin(), entries_, it->second);
      return entry.mask;
    }
  }
  ++stats_.misses;
  auto mask = std::make_shared<TokenMask>();
  compute(matcher, *mask, *walker_);
  entries_.push_front({hash, matcher.grammar_ptr(), matcher.stacks(), matcher.partial(), mask});
  index_.emplace(hash, entries_.begin());
  if (entries_.size() > capacity_) {
    auto oldest = std::prev(entries_.end());
    auto [a, b] = index_.equal_range(oldest->hash);
    for (auto it = a; it != b; ++it) {
      if (it->second == oldest) {
        index_.erase(it);
        break;
      }
    }
    entries_.pop_back();
  }
  return mask;
}

TokenMasker::Stats TokenMasker::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace ingot::sampling::grammar
