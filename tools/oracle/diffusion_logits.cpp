// DiffusionGemma's reference outputs from llama.cpp at the pull request
// that adds it (24423, commit c3fb97241295c196e09b783e705e84b96cd1bd74),
// for tests/model/diffusion_parity_test.cpp. Built outside the tree against
// that build; see tools/oracle/README.md.
//
//   diffusion_logits MODEL CASES.json OUT.json
//
// CASES.json: [{"prompt": [ids], "canvas": [canvas_length ids], "seed": S,
// "canvases": N}, ...]. For each case it records, as the golden files do
// (the greedy token and the eight best logits of a row):
//   encoder             each prompt position's logits from the causal pass
//   canvas_first        each canvas position's logits on a first step
//                       (no self-conditioning)
//   canvas_conditioned  the same canvas's logits self-conditioned on fixed
//                       logits (conditioning_logit below) at temperature 0.8
//   reply               the tokens of up to N canvases denoised by the
//                       reference's entropy-bounded sampler with seed S, each
//                       cut at its first end-of-generation token
// Environment: FA=0|1 turns flash attention off or on (default: llama.cpp's
// choice); EB_T=t runs the reply's every step at temperature t (the
// file's schedule otherwise).

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "diffusion.h"
#include "ggml.h"
#include "llama.h"
#include "row_record.h"

namespace {

using Json = nlohmann::json;

constexpr float kConditioningTemperature = 0.8f;

// The fixed logits the conditioned step reads, the same formula in the
// test: a spread of ten over a pattern that differs by position.
float conditioning_logit(int64_t position, int64_t token) {
  return float((uint64_t(token) * 2654435761u + uint64_t(position) * 40503u) % 1000u) / 100.0f;
}

// DUMP=name prints the first values of that graph tensor's first row at
// each evaluation (to find where two programs part).
bool dump_tensor(struct ggml_tensor* t, bool ask, void*) {
  const char* name = std::getenv("DUMP");
  if (name == nullptr || std::string(t->name) != name) return false;
  if (ask) return true;
  if (t->type == GGML_TYPE_F32) {
    const float* data = static_cast<const float*>(t->data);
    std::fprintf(stderr, "DUMP %s [%lld x %lld]:", t->name, (long long)t->ne[0],
                 (long long)t->ne[1]);
    for (int i = 0; i < 8; ++i) std::fprintf(stderr, " %.6g", data[i]);
    std::fprintf(stderr, "\n");
  }
  return true;
}

llama_context* make_context(llama_model* model) {
  llama_context_params params = llama_context_default_params();
  if (std::getenv("DUMP")) {
    params.cb_eval = dump_tensor;
    params.cb_eval_user_data = nullptr;
  }
  params.n_ctx = 4096;
  params.n_batch = 4096;
  params.n_ubatch = 4096;
  params.n_threads = 1;
  params.n_threads_batch = 1;
  if (const char* fa = std::getenv("FA"))
    params.flash_attn_type = llama_flash_attn_type(std::atoi(fa));
  return llama_init_from_model(model, params);
}

// Runs `tokens` from `start` and returns every row's record.
Json decode_all(llama_context* context, const std::vector<llama_token>& tokens, int start,
                int n_vocab) {
  llama_batch batch = llama_batch_init(int32_t(tokens.size()), 0, 1);
  batch.n_tokens = int32_t(tokens.size());
  for (size_t i = 0; i < tokens.size(); ++i) {
    batch.token[i] = tokens[i];
    batch.pos[i] = start + int32_t(i);
    batch.n_seq_id[i] = 1;
    batch.seq_id[i][0] = 0;
    batch.logits[i] = 1;
  }
  Json rows = Json::array();
  if (llama_decode(context, batch) != 0) {
    std::fprintf(stderr, "decode failed\n");
    std::exit(1);
  }
  for (size_t i = 0; i < tokens.size(); ++i) {
    rows.push_back(row_record(llama_get_logits_ith(context, int32_t(i)), n_vocab));
  }
  llama_batch_free(batch);
  return rows;
}

std::vector<llama_token> end_of_generation(const llama_vocab* vocab, int n_vocab) {
  std::vector<llama_token> ids;
  for (llama_token t = 0; t < n_vocab; ++t) {
    if (llama_vocab_is_eog(vocab, t)) ids.push_back(t);
  }
  return ids;
}

int64_t meta_int(const llama_model* model, const char* key, int64_t fallback) {
  char value[64];
  return llama_model_meta_val_str(model, key, value, sizeof value) >= 0 ? std::atoll(value)
                                                                        : fallback;
}

float meta_float(const llama_model* model, const char* key, float fallback) {
  char value[64];
  return llama_model_meta_val_str(model, key, value, sizeof value) >= 0
             ? std::strtof(value, nullptr)
             : fallback;
}

// Canvas after canvas as the reference's CLI runs them, without its cut at
// a repeating token: each canvas denoised after the prompt and the
// canvases before it, cut at its first end-of-generation token.
std::vector<llama_token> reply(llama_model* model, const std::vector<llama_token>& prompt,
                               int canvas_length, int seed, int canvases) {
  const llama_vocab* vocab = llama_model_get_vocab(model);
  diffusion_eb_params params;
  params.max_denoising_steps = int32_t(meta_int(model, "diffusion.eb_max_steps", 48));
  params.t_min = meta_float(model, "diffusion.eb_t_min", 0.4f);
  params.t_max = meta_float(model, "diffusion.eb_t_max", 0.8f);
  params.entropy_bound = meta_float(model, "diffusion.eb_entropy_bound", 0.1f);
  params.stability_threshold = int32_t(meta_int(model, "diffusion.eb_stability_threshold", 1));
  params.confidence_threshold = meta_float(model, "diffusion.eb_confidence_threshold", 0.005f);
  // A near-zero temperature makes the reply greedy-equivalent: every
  // sample the argmax, every entropy near zero, so that two programs whose
  // logits differ by rounding still agree on it.
  if (const char* t = std::getenv("EB_T")) params.t_min = params.t_max = std::strtof(t, nullptr);
  params.seed = seed;
  params.kv_cache = true;
  std::vector<llama_token> prefix = prompt, answer;
  for (int c = 0; c < canvases; ++c) {
    llama_context* context = make_context(model);
    params.max_length = int32_t(prefix.size()) + canvas_length;
    std::vector<llama_token> output(size_t(params.max_length));
    int32_t generated = 0;
    diffusion_generate_entropy_bound(context, prefix.data(), output.data(), int32_t(prefix.size()),
                                     params, generated);
    llama_free(context);
    if (generated <= int32_t(prefix.size())) break;
    const auto canvas = output.begin() + int64_t(prefix.size());
    const auto end = std::find_if(canvas, output.end(),
                                  [&](llama_token t) { return llama_vocab_is_eog(vocab, t); });
    answer.insert(answer.end(), canvas, end);
    if (end != output.end()) break;
    prefix.insert(prefix.end(), canvas, end);
  }
  return answer;
}

Json run_case(llama_model* model, const Json& spec, int canvas_length, int n_vocab) {
  const auto prompt = spec["prompt"].get<std::vector<llama_token>>();
  const auto canvas = spec["canvas"].get<std::vector<llama_token>>();
  const int n_prompt = int(prompt.size());
  Json record = {{"prompt_tokens", prompt}, {"canvas", canvas}};
  llama_context* context = make_context(model);
  llama_set_causal_attn(context, false);
  llama_diffusion_set_sc(model, nullptr, 0.0f, 1.0f, true);
  llama_diffusion_set_phase(model, /*PREFILL=*/1, n_prompt, 0);
  record["encoder"] = decode_all(context, prompt, 0, n_vocab);

  std::vector<float> previous(size_t(canvas_length) * size_t(n_vocab), 0.0f);
  llama_diffusion_set_phase(model, /*DECODE=*/2, n_prompt, 0);
  llama_diffusion_set_sc(model, previous.data(), 0.0f, 1.0f, true);
  record["canvas_first"] = decode_all(context, canvas, n_prompt, n_vocab);

  for (int p = 0; p < canvas_length; ++p) {
    for (int v = 0; v < n_vocab; ++v) {
      previous[size_t(p) * size_t(n_vocab) + size_t(v)] = conditioning_logit(p, v);
    }
  }
  llama_diffusion_set_sc(model, previous.data(), 1.0f, 1.0f / kConditioningTemperature, true);
  record["canvas_conditioned"] = decode_all(context, canvas, n_prompt, n_vocab);
  llama_diffusion_set_phase(model, /*UNIFIED=*/0, 0, 0);
  llama_free(context);

  const int seed = spec.value("seed", 0), canvases = spec.value("canvases", 1);
  record["reply"] = {{"seed", seed},
                     {"temperature", std::getenv("EB_T") ? std::atof(std::getenv("EB_T")) : -1.0},
                     {"canvases", canvases},
                     {"tokens", reply(model, prompt, canvas_length, seed, canvases)}};
  return record;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: diffusion_logits MODEL CASES.json OUT.json\n");
    return 2;
  }
  llama_backend_init();
  llama_model* model = llama_model_load_from_file(argv[1], llama_model_default_params());
  if (model == nullptr) return 1;
  const int canvas_length = int(meta_int(model, "diffusion.canvas_length", 0));
  if (canvas_length <= 0) {
    std::fprintf(stderr, "not a canvas model\n");
    return 1;
  }
  const int n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(model));
  const Json cases = Json::parse(std::ifstream(argv[2]));
  Json out = {{"model", argv[1]},
              {"n_vocab", n_vocab},
              {"canvas_length", canvas_length},
              {"conditioning_temperature", kConditioningTemperature},
              {"end_of_generation", end_of_generation(llama_model_get_vocab(model), n_vocab)},
              {"cases", Json::array()}};
  for (const Json& spec : cases)
    out["cases"].push_back(run_case(model, spec, canvas_length, n_vocab));
  std::ofstream(argv[3]) << out.dump(1) << "\n";
  llama_model_free(model);
  return 0;
}
