#include "model/architecture.h"

namespace ingot::model {
namespace {

using kernels::RopeLayout;

// Llama covers Llama 2 and 3.x, Mistral, TinyLlama and SmolLM: llama.cpp's
// converter permutes their q/k weights so adjacent-pair RoPE applies.
constexpr ArchitectureTraits kArchitectures[] = {
    {.architecture = Architecture::kLlama,
     .name = "llama",
     .rope_layout = RopeLayout::kAdjacentPairs,
     .qkv_bias = false,
     .qk_norm = false},
    // Phi-3 and Phi-4-mini: fused qkv and gate/up matrices, LongRoPE factors.
    {.architecture = Architecture::kPhi3,
     .name = "phi3",
     .rope_layout = RopeLayout::kHalves,
     .qkv_bias = false,
     .qk_norm = false},
    {.architecture = Architecture::kQwen2,
     .name = "qwen2",
     .rope_layout = RopeLayout::kHalves,
     .qkv_bias = true,
     .qk_norm = false},
    {.architecture = Architecture::kQwen3,
     .name = "qwen3",
     .rope_layout = RopeLayout::kHalves,
     .qkv_bias = false,
     .qk_norm = true},
    {.architecture = Architecture::kQwen3Moe,
     .name = "qwen3moe",
     .rope_layout = RopeLayout::kHalves,
     .qkv_bias = false,
     .qk_norm = true,
     .experts = true},
    {.architecture = Architecture::kQwen35,
     .name = "qwen35",
     .rope_layout = RopeLayout::kHalves,
     .qkv_bias = false,
     .qk_norm = true,
     .hybrid = true,
     .gated_attention = true},
    {.architecture = Architecture::kQwen35Moe,
     .name = "qwen35moe",
     .rope_layout = RopeLayout::kHalves,
     .qkv_bias = false,
     .qk_norm = true,
     .hybrid = true,
     .experts = true,
     .shared_expert = true,
     .gated_attention = true},
    {.architecture = Architecture::kGemma2,
     .name = "gemma2",
     .rope_layout = RopeLayout::kHalves,
     .qkv_bias = false,
     .qk_norm = false,
     .gemma = true,
     .scaled_embedding = true,
     .activation = Activation::kGELU},
    {.architecture = Architecture::kGemma3,
     .name = "gemma3",
     .rope_layout = RopeLayout::kHalves,
     .qkv_bias = false,
     .qk_norm = true,
     .gemma = true,
     .scaled_embedding = true,
     .activation = Activation::kGELU},
    {.architecture = Architecture::kGemma4,
     .name = "gemma4",
     .rope_layout = RopeLayout::kHalves,
     .qkv_bias = false,
     .qk_norm = true,
     .gemma = true,
     .normed_values = true,
     .scaled_embedding = true,
     .activation = Activation::kGELU,
     .experts_beside_dense = true},
    {.architecture = Architecture::kDiffusionGemma,
     .name = "diffusion-gemma",
     .rope_layout = RopeLayout::kHalves,
     .qkv_bias = false,
     .qk_norm = true,
     .gemma = true,
     .normed_values = true,
     .diffusion = true,
     .scaled_embedding = true,
     .activation = Activation::kGELU,
     .experts_beside_dense = true},
    {.architecture = Architecture::kGptOss,
     .name = "gpt-oss",
     .rope_layout = RopeLayout::kHalves,
     .qkv_bias = true,
     .qk_norm = false,
     .experts = true,
     .gpt_oss = true},
    // Encoders for embeddings and reranking (BGE, MiniLM, E5; nomic-embed-text).
    {.architecture = Architecture::kBert,
     .name = "bert",
     .rope_layout = RopeLayout::kHalves,
     .qkv_bias = false,  // biases as the file has them (weights.cpp's encoder binding)
     .qk_norm = false,
     .encoder = true,
     .learned_positions = true,
     .activation = Activation::kGELU},
    {.architecture = Architecture::kNomicBert,
     .name = "nomic-bert",
     .rope_layout = RopeLayout::kHalves,
     .qkv_bias = false,
     .qk_norm = false,
     .encoder = true},
};

}  // namespace

std::optional<ArchitectureTraits> find_architecture(std::string_view name) {
  for (const ArchitectureTraits& traits : kArchitectures) {
    if (traits.name == name) return traits;
  }
  return std::nullopt;
}

}  // namespace ingot::model
