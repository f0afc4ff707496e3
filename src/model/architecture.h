#pragma once
// The architectures ingot runs, and what sets each apart. The family flags
// (hybrid, gemma, gpt_oss, encoder) say which metadata and tensors the
// file has; the behaviour flags after them say what the forward pass does
// differently, and the pass reads only those (model/forward/layer_plan.h
// chooses each layer's blocks from them and from the config).

#include <optional>
#include <string_view>

#include "kernels/ops_rope.h"

namespace ingot::model {

enum class Architecture {
  kLlama,
  kPhi3,
  kQwen2,
  kQwen3,
  kQwen3Moe,
  kQwen35,
  kQwen35Moe,
  kGemma2,
  kGemma3,
  kGemma4,
  kDiffusionGemma,
  kGptOss,
  kBert,
  kNomicBert
};

// The activation of a dense feed-forward's gate (or, without a gate, of
// its up projection): SiLU, or GELU's tanh approximation.
enum class Activation { kSiLU, kGELU };

struct ArchitectureTraits {
  Architecture architecture;
  std::string_view name;            // general.architecture
  kernels::RopeLayout rope_layout;  // llama: adjacent pairs; qwen: halves (NeoX)
  bool qkv_bias;                    // qwen2 adds a bias to q, k and v
  bool qk_norm;                     // qwen3 RMS-normalizes each q and k head
  // qwen35: linear-attention layers between gated full-attention ones
  // (gated_attention); the feed-forward norm is named post_attention_norm.
  bool hybrid = false;
  // qwen3moe, qwen35moe: a routed mixture of experts in place of the dense
  // feed-forward; qwen35moe's with a gated shared expert beside it.
  bool experts = false;
  // gemma2, gemma3, gemma4: sliding-window and global layers with their own RoPE
  // (gemma4: and head sizes, shared KV layers, per-layer token embeddings),
  // norms after attention and feed-forward, GELU, scaled embeddings,
  // soft-capped logits where the file says.
  bool gemma = false;
  bool shared_expert = false;
  // gemma4: values RMS-normalized per head and the scores left unscaled.
  bool normed_values = false;
  // gpt-oss: sliding-window layers taking turns with full ones, a learned
  // sink logit per head in every softmax, biases on the output projection,
  // the router and the experts; its experts weighted by a softmax over the
  // chosen ones' scores and activated by a clamped SwiGLU.
  bool gpt_oss = false;
  // bert, nomic-bert: encoders. Every token sees its whole sequence; each
  // sub-layer's output is added to its input, then LayerNormed (post-norm);
  // the embedding adds the first token type's row and is LayerNormed; the
  // final hidden states are the layer stack's, with no output norm or head.
  bool encoder = false;
  // diffusion-gemma: Gemma 4's mixture generating by denoising a canvas of
  // tokens at a time (model/diffusion_config.h). Prompts and committed
  // canvases run causally through the KV cache with each layer's encoder
  // output scale; canvases run bidirectionally with its decoder scale, fed
  // the previous step's logits through a self-conditioning block.
  bool diffusion = false;
  // bert: learned absolute positions added to the embedding, no RoPE; its
  // feed-forward is GELU(up x) without a gate, every matrix biased.
  bool learned_positions = false;

  // Behaviours the forward pass reads.
  // The embedding rows are scaled by sqrt(n_embd) (Gemma).
  bool scaled_embedding = false;
  Activation activation = Activation::kSiLU;
  // The query projection also yields a sigmoid gate on each head's
  // attention output (qwen35).
  bool gated_attention = false;
  // The routed experts run beside a dense feed-forward on the same
  // residual, each side normed before and after (Gemma 4).
  bool experts_beside_dense = false;
};

// Traits of the architecture named `name`, or nullopt when ingot cannot run it.
std::optional<ArchitectureTraits> find_architecture(std::string_view name);

}  // namespace ingot::model
