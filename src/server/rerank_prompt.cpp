#include "server/rerank_prompt.h"

namespace ingot::server {
namespace {

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) {
    text.replace(at, from.size(), to);
  }
}

void append(std::vector<int32_t>& tokens, const std::vector<int32_t>& more) {
  tokens.insert(tokens.end(), more.begin(), more.end());
}

}  // namespace

std::vector<int32_t> rerank_tokens(const tokenizer::Tokenizer& tokenizer,
                                   const std::optional<std::string>& rerank_template,
                                   std::string_view query, std::string_view document) {
  if (rerank_template) {
    std::string prompt = *rerank_template;
    replace_all(prompt, "{query}", query);
    replace_all(prompt, "{document}", document);
    return tokenizer.encode(prompt, /*add_special=*/false, /*parse_special=*/true);
  }
  const tokenizer::Vocab& vocab = tokenizer.vocab();
  const tokenizer::SpecialIds& special = vocab.special_ids();
  const int32_t eos = special.eos != tokenizer::kNoToken ? special.eos : special.sep;
  std::vector<int32_t> tokens;
  if (vocab.add_bos() && special.bos != tokenizer::kNoToken) tokens.push_back(special.bos);
  append(tokens, tokenizer.encode(query, false, false));
  if (vocab.add_eos() && eos != tokenizer::kNoToken) tokens.push_back(eos);
  if (vocab.add_sep() && special.sep != tokenizer::kNoToken) tokens.push_back(special.sep);
  append(tokens, tokenizer.encode(document, false, false));
  if (vocab.add_eos() && eos != tokenizer::kNoToken) tokens.push_back(eos);
  return tokens;
}

}  // namespace ingot::server
