// JSON Schema to grammar on an arbitrary document, strict and relaxed. A
// grammar the translator produces must always parse: anything else is a
// bug in the translator, so it aborts.

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "sampling/grammar/gbnf_parser.h"
#include "sampling/grammar/json_schema_grammar.h"
#include "sampling/grammar/schema_relaxation.h"

namespace {

void translate(const nlohmann::ordered_json& schema) {
  using namespace ingot::sampling::grammar;
  auto gbnf = json_schema_to_gbnf(schema);
  if (gbnf.ok() && !parse_gbnf(*gbnf).ok()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto schema =
      nlohmann::ordered_json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (schema.is_discarded()) return 0;
  translate(schema);
  translate(ingot::sampling::grammar::relax_schema(schema).schema);
  return 0;
}
