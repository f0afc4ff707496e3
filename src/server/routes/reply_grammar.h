#pragma once
// The grammar a chat reply must follow, from what the request asks:
// `response_format` json_object / json_schema, llama-server's `grammar`,
// or a tool call that `tool_choice` requires (or, with "auto", one armed
// when the model opens a call). Compiling happens here, before admission,
// so a malformed grammar is a 400 naming it and never a reply that ignores
// it. A schema ingot cannot wholly enforce is a 400 naming the keyword only
// when the caller asked for strict enforcement (`strict: true` on the
// response format or the tool); otherwise what cannot be enforced is
// dropped, and named in `relaxed`.

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "chat/tool_calls/tool_call_family.h"
#include "sampling/grammar/grammar.h"
#include "sampling/grammar/tool_call_grammar.h"
#include "server/api_error.h"
#include "server/grammar_cache.h"
#include "server/openai/chat_request.h"

namespace ingot::server {

struct ReplyGrammar {
  std::shared_ptr<const sampling::grammar::Grammar> grammar;
  // Empty: the grammar holds from the first token. Else decoding is free
  // until one of these appears, and the grammar holds from there.
  std::vector<std::string> triggers;
  // The assertions dropped from tool and non-strict response schemas to
  // make them enforceable, each "where#/pointer: what" (schema_relaxation.h).
  std::vector<std::string> relaxed;
};

// No grammar (std::nullopt) when the reply is free text. `tool_family` is
// set when the request's tools are offered to the model; `reasoning` when
// the template reasons between tags, which a required call may follow.
// Grammars are compiled through `grammars`, so repeated ones are shared;
// `watch` stops a compile whose client left (a 499 error).
std::variant<std::optional<ReplyGrammar>, ApiError> reply_grammar_for(
    const StructuredOutputFields& request,
    std::optional<chat::tool_calls::ToolCallFamily> tool_family,
    const std::optional<sampling::grammar::ReasoningBlock>& reasoning, GrammarCache& grammars,
    const GrammarCompileWatch& watch = {});

}  // namespace ingot::server
