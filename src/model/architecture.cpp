#include "model/architecture.h"

namespace ingot::model {
namespace {

using kernels::RopeLayout;

// Llama covers Llama 2 and 3.x, Mistral, TinyLlama and SmolLM: llama.cpp's
// converter permutes their q/k weights so adjacent-pair RoPE applies.
constexpr ArchitectureTraits kArchitectures[] = {
    {Architecture::kLlama, "llama", RopeLayout::kAdjacentPairs, false, false},
    // Phi-3 and Phi-4-mini: fused qkv and gate/up matrices, LongRoPE factors.
    {Architecture::kPhi3, "phi3", RopeLayout::kHalves, false, false},
    {Architecture::kQwen2, "qwen2", RopeLayout::kHalves, true, false},
    {Architecture::kQwen3, "qwen3", RopeLayout::kHalves, false, true},
    {Architecture::kQwen3Moe, "qwen3moe", RopeLayout::kHalves, false, true, false, true},
    {Architecture::kQwen35, "qwen35", RopeLayout::kHalves, false, true, true},
    {Architecture::kQwen35Moe, "qwen35moe", RopeLayout::kHalves, false, true, true, true, false,
     true},
    {Architecture::kGemma2, "gemma2", RopeLayout::kHalves, false, false, false, false, true},
    {Architecture::kGemma3, "gemma3", RopeLayout::kHalves, false, true, false, false, true},
    {Architecture::kGemma4, "gemma4", RopeLayout::kHalves, false, true, false, false, true, false,
     true},
    {Architecture::kGptOss, "gpt-oss", RopeLayout::kHalves, true, false, false, true, false, false,
     false, true},
    // Encoders for embeddings and reranking (BGE, MiniLM, E5; nomic-embed-text).
    {.architecture = Architecture::kBert,
     .name = "bert",
     .rope_layout = RopeLayout::kHalves,
     .qkv_bias = false,  // biases as the file has them (weights.cpp's encoder binding)
     .qk_norm = false,
     .encoder = true,
     .learned_positions = true},
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
