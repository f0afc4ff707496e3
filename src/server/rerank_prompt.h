#pragma once
// The tokens a reranker scores for one (query, document) pair, as
// llama-server's format_prompt_rerank builds them: the file's rerank
// template (tokenizer.chat_template.rerank, Qwen3-Reranker's) with {query}
// and {document} filled in, its special tokens parsed and none added; else
//   [BOS] query [EOS] [SEP] document [EOS]
// each special token only where the vocabulary adds it (BERT's: [CLS]
// query [SEP] document; EOS is SEP when the vocabulary has no EOS).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace ingot::server {

std::vector<int32_t> rerank_tokens(const tokenizer::Tokenizer& tokenizer,
                                   const std::optional<std::string>& rerank_template,
                                   std::string_view query, std::string_view document);

}  // namespace ingot::server
