#pragma once
// The legacy completions API's logprobs shape, as OpenAI's `Completion`
// type has it: parallel lists, one entry per token.
//   {"tokens": [piece], "token_logprobs": [logprob | null],
//    "top_logprobs": [{piece: logprob} | null], "text_offset": [bytes]}
// A prompt's first token (echo) has nothing before it: null logprob and
// null alternatives, as in OpenAI's API.

#include <cstddef>
#include <functional>
#include <vector>

#include "server/openai/chat_response.h"

namespace ingot::server {

// How many bytes of the reply's text a token stands for: its piece, or
// less (a hidden control token, a space prefix dropped at the text start).
using TextBytesOf = std::function<size_t(const engine::GeneratedToken&)>;

// `text_offset` is each token's byte offset in the reply's text, starting
// at `offset`, which the call advances past these tokens (a stream calls
// it per chunk).
ordered_json legacy_logprobs_json(const std::vector<engine::GeneratedToken>& tokens,
                                  const PieceOf& piece_of, const TextBytesOf& text_bytes_of,
                                  size_t& offset);

}  // namespace ingot::server
