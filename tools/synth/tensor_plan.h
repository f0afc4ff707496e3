#pragma once
// The tensors of a shape, with llama.cpp's names and GGUF's dimension order
// (innermost first: a [out][in] weight has dims {in, out}).

#include <cstdint>
#include <string>
#include <vector>

#include "shapes.h"

namespace ingot::synth {

// What a tensor is for: it decides its initial values and, for the mixed
// quantization presets, its element type.
enum class TensorRole {
  kEmbedding,
  kOutput,
  kNorm,  // RMSNorm weights: ones, always F32
  kBias,  // q/k/v biases: small, always F32
  kAttentionV,
  kFeedForwardDown,
  kOtherWeight,
  kConvolution,   // linear attention's causal convolution: F32, as llama.cpp keeps it
  kDecayRate,     // ssm_a, -exp(A_log): negative, F32
  kDecayBias,     // ssm_dt.bias: F32
  kRouter,        // expert routers: F32, as llama.cpp keeps them
  kUnquantized,   // small matrices llama.cpp keeps as they are (Gemma's per-layer projection): F32
  kRopeFactors,   // rope_freqs: 1 for the turning pairs, huge for the still ones
  kLayerScale,    // Gemma 4's layer_output_scale: around 1
  kQueryKeyNorm,  // Gemma 4's q/k norms: head_size^(-1/4) each, so scores scale as 1/sqrt(d)
  kScale,         // Gemma 4's per-expert output scales: around 1
  // Gemma 4's router input scale: large enough that the router, reading
  // its input divided by sqrt(hidden), still tells experts apart as a
  // trained one does. Near-even routing would let a rounding difference
  // swap an expert and fail a parity test that is otherwise exact.
  kRouterInputScale,
  // LongRoPE's per-pair frequency divisors: between 1 and 3, F32.
  kLongRopeFactors,
  // gpt-oss's sink logits, one per head: between -1 and 2, F32, so that a
  // sink takes a share of every softmax beside random weights' small scores.
  kAttentionSink,
  // gpt-oss's router bias: spread wide beside the scores random weights
  // give, as a trained router's is, so that few tokens' choices sit on a
  // near tie that the two programs' rounding could break apart.
  kRouterBias,
  // A reranker's head (cls, cls.output): wider than other weights, so that
  // the synthetic scores of different documents lie apart.
  kClassifier,
  // A LoRA adapter's low-rank pair: wide enough that the adapted model's
  // greedy replies differ from the base's.
  kLoraA,
  kLoraB,
};

struct PlannedTensor {
  std::string name;
  std::vector<int64_t> dims;
  TensorRole role;
  int64_t layer;  // -1 outside the blocks
};

std::vector<PlannedTensor> plan_tensors(const Shape& shape, int64_t vocabulary_size);

// A LoRA adapter of `rank` for a plain transformer shape, in llama.cpp's
// format: for each layer's q, k, v, output, gate, up and down projections,
// "<weight>.lora_a" {in, rank} and "<weight>.lora_b" {rank, out}.
std::vector<PlannedTensor> plan_lora_tensors(const Shape& shape, int64_t rank);

}  // namespace ingot::synth
