// Teacher-forced logits from llama.cpp, the oracle of the parity tests, in
// ../shared/fixtures/golden's format (plus each step's logit range, and
// every logit with ALL=1). Built outside the tree against a llama.cpp
// build; see tools/oracle/README.md.
//
//   llama_logits MODEL PROMPTS.json OUT.json
//
// PROMPTS.json: [[token ids...], ...]. Environment: STEPS (default 32);
// FORCE=GOLDEN.json feeds that file's tokens instead of the argmax; FA=0|1
// turns flash attention off or on (default: llama.cpp's choice); KV32=1
// keeps the KV cache in F32.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "llama.h"
#include "row_record.h"

namespace {

using Json = nlohmann::json;

const char* env(const char* name) {
  return std::getenv(name);
}

llama_context_params context_params() {
  llama_context_params params = llama_context_default_params();
  params.n_ctx = 2048;
  params.n_batch = 2048;
  params.n_ubatch = 512;
  params.n_threads = 1;
  params.n_threads_batch = 1;
  if (env("FA")) params.flash_attn_type = llama_flash_attn_type(std::atoi(env("FA")));
  if (env("KV32")) {
    params.type_k = GGML_TYPE_F32;
    params.type_v = GGML_TYPE_F32;
  }
  return params;
}

// One step's record: row_record's, and every logit with ALL=1.
Json step_record(const float* logits, int n_vocab) {
  Json step = row_record(logits, n_vocab);
  if (env("ALL")) step["all"] = std::vector<float>(logits, logits + n_vocab);
  return step;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: llama_logits MODEL PROMPTS.json OUT.json\n");
    return 2;
  }
  llama_backend_init();
  llama_model* model = llama_model_load_from_file(argv[1], llama_model_default_params());
  if (model == nullptr) return 1;
  const Json prompts = Json::parse(std::ifstream(argv[2]));
  const Json forced = env("FORCE") ? Json::parse(std::ifstream(env("FORCE"))) : Json();
  const int steps = env("STEPS") ? std::atoi(env("STEPS")) : 32;
  const int n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(model));
  Json out = {{"model", argv[1]}, {"n_vocab", n_vocab}, {"cases", Json::array()}};
  for (size_t c = 0; c < prompts.size(); ++c) {
    llama_context* context = llama_init_from_model(model, context_params());
    std::vector<llama_token> prompt = prompts[c].get<std::vector<llama_token>>();
    Json record = {{"prompt", ""}, {"prompt_tokens", prompt}, {"steps", Json::array()}};
    llama_batch batch = llama_batch_get_one(prompt.data(), int32_t(prompt.size()));
    llama_token next = 0;  // the batch of one after the prompt points here
    for (int s = 0; s < steps; ++s) {
      if (llama_decode(context, batch) != 0) return 3;
      Json step = step_record(llama_get_logits_ith(context, -1), n_vocab);
      next = forced.is_null() ? step["token"].get<llama_token>()
                              : forced["cases"][c]["steps"][size_t(s)]["token"].get<llama_token>();
      record["steps"].push_back(std::move(step));
      batch = llama_batch_get_one(&next, 1);
    }
    out["cases"].push_back(std::move(record));
    llama_free(context);
  }
  std::ofstream(argv[3]) << out.dump();
  llama_model_free(model);
  return 0;
}
