// The GBNF parser on arbitrary text; a grammar that parses is then walked
// by the matcher over the text's own bytes.

#include <cstdint>
#include <string_view>

#include "sampling/grammar/gbnf_parser.h"
#include "sampling/grammar/grammar_matcher.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ingot::sampling::grammar;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto grammar = parse_gbnf(text);
  if (!grammar.ok()) return 0;
  GrammarMatcher matcher(*grammar);
  for (char c : text.substr(0, 256)) {
    if (!matcher.accept_bytes(std::string_view(&c, 1))) break;
  }
  (void)matcher.can_end();
  return 0;
}
