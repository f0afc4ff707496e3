#include "shapes.h"

namespace ingot::synth {
namespace {

// clang-format off
constexpr Shape kShapes[] = {
    // name           arch     hidden layers heads kv  head_dim ffn   bias   qk_norm tied  rope    ctx     eps
    {"tiny",          "qwen3",  256,   2,    4,    2,  64,      768,  false, true,   true, 1e6,    8192,   1e-6f},
    {"tiny-qwen2",    "qwen2",  256,   2,    4,    2,  64,      768,  true,  false,  true, 1e6,    8192,   1e-6f},
    {"tiny-llama",    "llama",  256,   2,    4,    2,  64,      768,  false, false,  false, 5e5,   8192,   1e-5f},
    // Phi-3.5 / Phi-4-mini in small: fused q/k/v and gate/up, 48 of 64
    // dimensions rotated, LongRoPE factors with an original context of 4096
    // (tiny-phi3) or 256 (tiny-phi3-long, whose golden context of 512 takes
    // the long factors).
    {"tiny-phi3",     "phi3",   256,   2,    4,    2,  64,      512,  false, false,  false, 1e4,   131072, 1e-5f,
     0, {}, 48, {}, {}, {}, 0, 4096},
    {"tiny-phi3-long", "phi3",  256,   2,    4,    2,  64,      512,  false, false,  false, 1e4,   131072, 1e-5f,
     0, {}, 48, {}, {}, {}, 0, 256},
    // Qwen3-MoE in small: qwen3's attention, 2 of 8 routed experts in place
    // of the feed-forward, no shared expert (Qwen3-30B-A3B's layout).
    {"tiny-qwen3moe", "qwen3moe", 256, 2,    4,    2,  64,      768,  false, true,   true, 1e6,    8192,   1e-6f,
     0, {}, 0, {}, {8, 2, 256, 0}},
    // Qwen3-30B-A3B cut to 12 of its 48 layers (8 of 128 experts of 768),
    // for speed figures.
    {"qwen3-30b-a3b-12l", "qwen3moe", 2048, 12, 32,  4,  128,     6144, false, true,   false, 1e6,   40960,  1e-6f,
     0, {}, 0, {}, {128, 8, 768, 0}},
    {"qwen2.5-0.5b",  "qwen2",  896,   24,   14,   2,  64,      4864, true,  false,  true, 1e6,    32768,  1e-6f},
    // Qwen3-Embedding: qwen3's layers, pooled by the last token (the file
    // says so); in small, and Qwen3-Embedding-0.6B's shape.
    {"tiny-qwen3-embedding", "qwen3", 256, 2,    4,    2,  64,      768,  false, true,   true, 1e6,    8192,   1e-6f,
     0, {}, 0, {}, {}, {}, 0, 0, 0, 0, 3},
    {"qwen3-embedding-0.6b", "qwen3", 1024, 28,  16,   8,  128,     3072, false, true,   true, 1e6,    32768,  1e-6f,
     0, {}, 0, {}, {}, {}, 0, 0, 0, 0, 3},
    // A Qwen3-Reranker in small: rank pooling, the last token's state
    // through cls.output (its "yes" and "no" rows), then a softmax.
    {"tiny-qwen3-reranker", "qwen3", 256, 2,     4,    2,  64,      768,  false, true,   true, 1e6,    8192,   1e-6f,
     0, {}, 0, {}, {}, {}, 0, 0, 0, 0, 4, 2},
    // BERT encoders (head size hidden / heads, LayerNorm epsilon 1e-12, CLS
    // pooling as BGE's): in small, bge-small-en-v1.5's shape, and a
    // cross-encoder reranker (bge-reranker's head: cls, tanh, cls.output).
    {"tiny-bert",     "bert",   128,   2,    4,    4,  32,      512,  true,  false,  false, 0,      512,    1e-12f,
     0, {}, 0, {}, {}, {}, 0, 0, 0, 0, 2},
    {"bge-small-en-v1.5", "bert", 384, 12,   12,   12, 32,      1536, true,  false,  false, 0,      512,    1e-12f,
     0, {}, 0, {}, {}, {}, 0, 0, 0, 0, 2},
    {"tiny-bert-reranker", "bert", 128,  2,    4,    4,  32,      512,  true,  false,  false, 0,      512,    1e-12f,
     0, {}, 0, {}, {}, {}, 0, 0, 0, 0, 4, 1},
    // nomic-embed-text in small: fused q/k/v, RoPE (NeoX, base 1000),
    // SwiGLU, no biases, mean pooling.
    {"tiny-nomic-bert", "nomic-bert", 128, 2,  4,    4,  32,      256,  false, false,  false, 1000,   2048,   1e-12f,
     0, {}, 0, {}, {}, {}, 0, 0, 0, 0, 1},
    {"qwen3-0.6b",    "qwen3",  1024,  28,   16,   8,  128,     3072, false, true,   true, 1e6,    40960,  1e-6f},
    {"llama3.2-1b",   "llama",  2048,  16,   32,   8,  64,      8192, false, false,  true, 5e5,    131072, 1e-5f},
    // Qwen3.5's hybrid layout in small: three linear-attention layers, then
    // one gated full-attention layer; twice as many value heads as key heads;
    // one multi-token-prediction block.
    {"tiny-qwen35",   "qwen35", 256,   4,    4,    2,  64,      512,  false, true,   true, 1e7,    8192,   1e-6f,
     4, {4, 64, 2, 4}, 16, {3, 3, 2, 0}, {}, {}, 1},
    // Qwen3.5-2B and Qwen3.5-35B-A3B cut to 12 of its 40 layers, for speed
    // figures (the vocabulary is whatever --vocab-from gives).
    {"qwen3.5-2b",    "qwen35", 2048,  24,   8,    2,  256,     6144, false, true,   true, 1e7,    262144, 1e-6f,
     4, {4, 128, 16, 16}, 64, {11, 11, 10, 0}, {}, {}, 1},
    {"qwen3.5-35b-a3b-12l", "qwen35moe", 2048, 12, 16, 2, 256,     512,  false, true,   false, 1e7,   262144, 1e-6f,
     4, {4, 128, 16, 32}, 64, {11, 11, 10, 0}, {256, 8, 512, 512}},
    // Gemma 4 in small: sliding-window layers (window 8, head size 64) and
    // global ones (head size 128, proportional RoPE) taking turns, the last
    // two reading the keys and values of the two before them, per-layer
    // token embeddings of 64, final logits soft-capped at 30.
    {"tiny-gemma4",   "gemma4", 256,   6,    4,    2,  128,     512,  false, true,   true, 1e6,    8192,   1e-6f,
     0, {}, 0, {}, {}, {2, 8, 64, 1e4, 2, 64, 30.0f}},
    // Gemma 3 in small: five sliding-window layers (window 8) to one global,
    // one head size, the global layers' RoPE scaled linearly by 8 as in the
    // 4B and larger members.
    {"tiny-gemma3",   "gemma3", 256,   6,    4,    2,  64,      512,  false, true,   true, 1e6,    8192,   1e-6f,
     0, {}, 0, {}, {}, {6, 8, 64, 1e4, 0, 0, 0.0f, 0, false, 8.0f}},
    // Gemma 3 1B whole: five sliding layers (window 512) to one global,
    // one KV head of 256, for speed figures.
    {"gemma3-1b",     "gemma3", 1152,  26,   4,    1,  256,     6912, false, true,   true, 1e6,    32768,  1e-6f,
     0, {}, 0, {}, {}, {6, 512, 256, 1e4}},
    // Gemma 2 in small: sliding and global layers taking turns (window 8),
    // no q/k norms, its scores soft-capped at 0.2 (trained Gemma 2's 50 would
    // never bend random weights' small scores) and its logits at 30.
    {"tiny-gemma2",   "gemma2", 256,   4,    4,    2,  64,      512,  false, false,  true, 1e4,    8192,   1e-6f,
     0, {}, 0, {}, {}, {2, 8, 64, 1e4, 0, 0, 30.0f, 0, false, 0.0f, 0.2f}},
    // Gemma 4's mixture-of-experts member in small: 2 of 8 GELU experts
    // beside the dense feed-forward, no per-layer embeddings, no shared KV;
    // as in the 26B-A4B, its global layers have fewer KV heads than its
    // sliding ones and read their keys as values.
    {"tiny-gemma4moe", "gemma4", 256,  4,    4,    2,  128,     512,  false, true,   true, 1e6,    8192,   1e-6f,
     0, {}, 0, {}, {8, 2, 256, 0}, {2, 8, 64, 1e4, 0, 0, 30.0f, 1, true}},
    // Gemma 4 E4B (five sliding layers of window 512 to one global, the
    // last 18 layers reading earlier layers' keys and values, per-layer
    // embeddings of 256), and the 26B-A4B mixture (8 of 128 GELU experts
    // beside a dense feed-forward) cut to 10 of its 30 layers, for speed
    // figures; the mixture's global layers as in the 26B-A4B: 2 KV heads to
    // the sliding layers' 8, their keys read as values.
    {"gemma4-e4b",    "gemma4", 2560,  42,   8,    2,  512,     10240, false, true,  true, 1e6,    131072, 1e-6f,
     0, {}, 0, {}, {}, {6, 512, 256, 1e4, 18, 256, 30.0f}},
    {"gemma4-26b-a4b-10l", "gemma4", 2816, 10, 16,   8,  512,     2112, false, true,   true, 1e6,    262144, 1e-6f,
     0, {}, 0, {}, {128, 8, 704, 0}, {6, 1024, 256, 1e4, 0, 0, 30.0f, 2, true}},
    // DiffusionGemma: the mixture above (as tiny-gemma4moe and as the
    // 26B-A4B cut to 10 of 30 layers) denoising canvases of 32 and of 256
    // tokens, the tiny one's longer than its window. The tiny one sends
    // every token to both of its two experts: a random router's near ties
    // would flip on either program's rounding (tiny-gemma4moe tests the
    // choosing), and its parity tests hold canvases in F16 and Q8_0.
    {"tiny-diffusion-gemma", "diffusion-gemma", 256, 4, 4, 2, 128,  512,  false, true,   true, 1e6,    8192,   1e-6f,
     0, {}, 0, {}, {2, 2, 256, 0}, {2, 8, 64, 1e4, 0, 0, 30.0f, 1, true, 0.0f, 0.0f, 32}},
    {"diffusion-gemma-26b-a4b-10l", "diffusion-gemma", 2816, 10, 16, 8, 512, 2112, false, true, true, 1e6, 262144, 1e-6f,
     0, {}, 0, {}, {128, 8, 704, 0}, {6, 1024, 256, 1e4, 0, 0, 30.0f, 2, true, 0.0f, 0.0f, 256}},
    // The same with Qwen3.5-MoE's feed-forward: 2 of 8 routed experts and a
    // gated shared expert, its prediction block's too.
    {"tiny-qwen35moe", "qwen35moe", 256, 4,  4,    2,  64,      512,  false, true,   true, 1e7,    8192,   1e-6f,
     4, {4, 64, 2, 4}, 16, {3, 3, 2, 0}, {8, 2, 256, 256}, {}, 1},
    // gpt-oss in small: sliding (window 8) and full layers taking turns,
    // q/k/v and output biases, sink logits, 2 of 8 biased experts with the
    // clamped SwiGLU, YaRN by 32 over an original context of 4096 as in
    // gpt-oss-20b; and gpt-oss-20b itself cut to 12 of its 24 layers.
    {"tiny-gpt-oss",  "gpt-oss", 256,  4,    4,    2,  64,      256,  true,  false,  false, 1.5e5, 131072, 1e-5f,
     0, {}, 0, {}, {8, 2, 256, 0}, {2, 8, 64}, 0, 0, 32.0f, 4096},
    {"gpt-oss-20b-12l", "gpt-oss", 2880, 12, 64,   8,  64,      2880, true,  false,  false, 1.5e5, 131072, 1e-5f,
     0, {}, 0, {}, {32, 4, 2880, 0}, {2, 128, 64}, 0, 0, 32.0f, 4096},
};
// clang-format on

}  // namespace

std::optional<Shape> find_shape(std::string_view name) {
  for (const Shape& shape : kShapes) {
    if (shape.name == name) return shape;
  }
  return std::nullopt;
}

std::vector<std::string_view> shape_names() {
  std::vector<std::string_view> names;
  for (const Shape& shape : kShapes) names.push_back(shape.name);
  return names;
}

}  // namespace ingot::synth
