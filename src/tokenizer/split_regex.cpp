#include "tokenizer/split_regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <string>

namespace ingot::tokenizer {

// Per-call matching resources: one match block and one JIT stack reused for
// every match of one split() call, so concurrent callers share nothing.
struct MatchState {
  pcre2_match_data* match_data = nullptr;
  pcre2_match_context* context = nullptr;
  pcre2_jit_stack* jit_stack = nullptr;

  explicit MatchState(const pcre2_code* code) {
    match_data = pcre2_match_data_create_from_pattern(code, nullptr);
    context = pcre2_match_context_create(nullptr);
    // Long runs of white space need more than the 32 KiB default stack.
    jit_stack = pcre2_jit_stack_create(32 * 1024, 8 * 1024 * 1024, nullptr);
    pcre2_jit_stack_assign(context, nullptr, jit_stack);
  }
  ~MatchState() {
    pcre2_jit_stack_free(jit_stack);
    pcre2_match_context_free(context);
    pcre2_match_data_free(match_data);
  }
  MatchState(const MatchState&) = delete;
  MatchState& operator=(const MatchState&) = delete;
};

namespace {

std::string pcre2_message(int code) {
  PCRE2_UCHAR buffer[256];
  pcre2_get_error_message(code, buffer, sizeof(buffer));
  return reinterpret_cast<const char*>(buffer);
}

size_t next_code_point(std::string_view text, size_t pos) {
  ++pos;
  while (pos < text.size() && (static_cast<uint8_t>(text[pos]) & 0xC0) == 0x80) ++pos;
  return pos;
}

}  // namespace

void SplitRegex::CodeDeleter::operator()(pcre2_real_code_8* code) const {
  pcre2_code_free(code);
}

std::string widen_whitespace_class(std::string_view pattern) {
  std::string out;
  bool in_class = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      char escaped = pattern[++i];
      if (escaped == 's') {
        out += in_class ? "\\s\\x{85}" : "[\\s\\x{85}]";
      } else if (escaped == 'S' && !in_class) {
        out += "[^\\s\\x{85}]";
      } else {
        out += c;
        out += escaped;
      }
      continue;
    }
    if (c == '[' && !in_class) {
      in_class = true;
    } else if (c == ']' && in_class) {
      in_class = false;
    }
    out += c;
  }
  return out;
}

Result<SplitRegex> SplitRegex::compile(std::string_view pattern) {
  SplitRegex regex;
  regex.pattern_ = std::string(pattern);
  std::string widened = widen_whitespace_class(pattern);
  int error_code = 0;
  PCRE2_SIZE error_offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(widened.data()), widened.size(),
                                   PCRE2_UTF | PCRE2_UCP | PCRE2_DOLLAR_ENDONLY, &error_code,
                                   &error_offset, nullptr);
  if (code == nullptr) {
    return internal_error("pre-tokenizer regex '" + regex.pattern_ + "' does not compile: " +
                          pcre2_message(error_code) + " at offset " + std::to_string(error_offset));
  }
  regex.code_.reset(code);
  // Without JIT (an unsupported CPU) matching still works, only slower.
  (void)pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
  return regex;
}

void SplitRegex::split(const std::vector<std::string_view>& pieces,
                       std::vector<std::string_view>& out) const {
  MatchState state(code_.get());
  for (std::string_view piece : pieces) split_one(piece, state, out);
}

void SplitRegex::split_one(std::string_view piece, MatchState& state,
                           std::vector<std::string_view>& out) const {
  auto subject = reinterpret_cast<PCRE2_SPTR>(piece.data());
  size_t emitted = 0;  // end of the last piece written to `out`
  size_t search_from = 0;
  while (search_from < piece.size()) {
    int rc = pcre2_match(code_.get(), subject, piece.size(), search_from, PCRE2_NO_UTF_CHECK,
                         state.match_data, state.context);
    if (rc == PCRE2_ERROR_JIT_STACKLIMIT) {
      rc = pcre2_match(code_.get(), subject, piece.size(), search_from,
                       PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, state.match_data, state.context);
    }
    if (rc < 0) break;  // no further match (or a resource limit): the rest is one piece
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(state.match_data);
    size_t begin = ovector[0];
    size_t end = ovector[1];
    if (begin == end) {  // an empty match separates nothing
      search_from = next_code_point(piece, end);
      continue;
    }
    if (begin > emitted) out.push_back(piece.substr(emitted, begin - emitted));
    out.push_back(piece.substr(begin, end - begin));
    emitted = search_from = end;
  }
  if (emitted < piece.size()) out.push_back(piece.substr(emitted));
}

}  // namespace ingot::tokenizer
