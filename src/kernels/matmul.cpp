#include "kernels/matmul.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>

#include "kernels/activation_pack.h"
#include "kernels/interleave.h"
#include "kernels/kernel_table.h"

namespace ingot::kernels {
namespace {

// Tokens per token tile: a tile's packed activations (64 rows of ~4 KiB
// for 4096 columns) stay in L2 while its weight rows are reused across
// them. Calls of one token tile hand out rows in shrinking chunks
// (run_in_shrinking_chunks); longer ones split into fixed work items of a
// row tile by a token tile.
constexpr int64_t kTokenTile = 64;
// Row boundaries of work items and chunks: a multiple of the kernels' row
// blocking.
constexpr int64_t kRowAlign = 16;
// Rows per fixed work item: small enough for load balance (several items
// per thread) and for the tile's weight rows to stay in cache across its
// tokens.
constexpr int64_t kMaxRowTile = 64;
constexpr int64_t kItemsPerThread = 4;

int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

int64_t round_up_to_row_align(int64_t rows) {
  return ceil_div(rows, kRowAlign) * kRowAlign;
}

// Rows per claim of run_in_shrinking_chunks come in multiples of this, so
// that edge micro-tiles (kernels/shapes/tile_loop.h) fall on a matrix's last rows
// only. 2-4 tokens over interleaved weights walk 6-row micro-tiles, where
// claims of 16 rows left 4 rows to slower 4-row tiles in every chunk;
// everything else walks 4- or 8-row tiles, which 16 (the claim size that
// decode was tuned with) divides.
int64_t claim_alignment(const WeightMatrix& w, int64_t n_tokens) {
  if (n_tokens >= 2 && n_tokens <= 4 && w.interleaved != nullptr) {
    return kInterleavedSmallBatchRows;
  }
  return kRowAlign;
}

int64_t row_tile_for(int64_t rows, int n_threads) {
  const int64_t tile = round_up_to_row_align(ceil_div(rows, kItemsPerThread * n_threads));
  return std::clamp<int64_t>(tile, 1, kMaxRowTile);
}

}  // namespace

namespace {

// How one product splits into work items: row tiles x token tiles.
struct ProductTiling {
  ProductTiling() = default;

  TileKernel kernel = nullptr;
  int64_t claim_rows = kRowAlign;  // run_in_shrinking_chunks claims multiples of it
  int64_t tok_tile = 0;
  int64_t n_tok_tiles = 0;
  int64_t row_tile = 0;
  int64_t items = 0;

  ProductTiling(const MatmulProduct& p, int n_threads) {
    assert(p.x->cols() == p.w->cols);
    assert(p.x->packed_type() == dot_operand_type(p.w->type));
    const int64_t n_tokens = p.x->n_tokens();
    if (p.w->rows <= 0 || n_tokens <= 0) return;
    kernel = active_kernels().tile_kernel(p.w->type);
    assert(kernel != nullptr && "matmul: unsupported weight type");
    claim_rows = claim_alignment(*p.w, n_tokens);
    tok_tile = std::min(n_tokens, kTokenTile);
    n_tok_tiles = ceil_div(n_tokens, tok_tile);
    row_tile = row_tile_for(p.w->rows, n_threads);
    items = ceil_div(p.w->rows, row_tile) * n_tok_tiles;
  }

  // Consecutive items share a row tile, so a thread's weights stay cached.
  void run(const MatmulProduct& p, int64_t item) const {
    const int64_t row_begin = (item / n_tok_tiles) * row_tile;
    const int64_t tok_begin = (item % n_tok_tiles) * tok_tile;
    const TileRange range{row_begin, std::min(row_begin + row_tile, p.w->rows), tok_begin,
                          std::min(tok_begin + tok_tile, p.x->n_tokens())};
    kernel(*p.w, *p.x, range, p.y, p.y_stride);
  }
};

// A q/k/v or gate/up group with the A matrices of a few LoRA adapters for
// each (model/lora_deltas.h); more products are run in groups.
constexpr size_t kMaxProducts = 32;

// Calls whose every product is one token tile (decode, a few sequences
// decoded together, short prompt chunks) hand out rows in shrinking chunks
// instead of fixed items: large ones first, so the weights stream in long
// runs with few claims, and small ones last, so the threads finish
// together.
void run_in_shrinking_chunks(std::span<const MatmulProduct> products,
                             const std::array<ProductTiling, kMaxProducts>& tilings,
                             ThreadPool& pool) {
  std::array<int64_t, kMaxProducts + 1> first_row{};
  for (size_t i = 0; i < products.size(); ++i) {
    first_row[i + 1] = first_row[i] + (tilings[i].items > 0 ? products[i].w->rows : 0);
  }
  const int64_t total = first_row[products.size()];
  const int64_t threads = pool.size();
  ThreadPool::ClaimCounter next;
  pool.parallel_for(threads, 1, [&](int64_t, int64_t) {
    size_t i = 0;  // claims only grow, so each thread walks the products forward
    for (;;) {
      int64_t begin = next.value.load(std::memory_order_relaxed);
      int64_t end = 0;
      do {
        if (begin >= total) return;
        while (begin >= first_row[i + 1]) ++i;
        // A multiple of the claimed product's claim alignment: chunks start
        // at its first row or where the last ended, so they stay aligned.
        const int64_t align = tilings[i].claim_rows;
        const int64_t chunk = ceil_div(ceil_div(total - begin, 2 * threads), align) * align;
        end = std::min(begin + chunk, first_row[i + 1]);
      } while (!next.value.compare_exchange_weak(begin, end, std::memory_order_relaxed));
      const MatmulProduct& p = products[i];
      const TileRange range{begin - first_row[i], end - first_row[i], 0, p.x->n_tokens()};
      tilings[i].kernel(*p.w, *p.x, range, p.y, p.y_stride);
    }
  });
}

}  // namespace

void matmul_all(std::span<const MatmulProduct> products, ThreadPool& pool) {
  while (products.size() > kMaxProducts) {
    matmul_all(products.first(kMaxProducts), pool);
    products = products.subspan(kMaxProducts);
  }
  std::array<ProductTiling, kMaxProducts> tilings{};
  std::array<int64_t, kMaxProducts + 1> first_item{};
  for (size_t i = 0; i < products.size(); ++i) {
    tilings[i] = ProductTiling(products[i], pool.size());
    first_item[i + 1] = first_item[i] + tilings[i].items;
  }
  const int64_t total = first_item[products.size()];
  if (total == 0) return;
  const bool one_token_tile =
      std::all_of(tilings.begin(), tilings.begin() + products.size(),
                  [](const ProductTiling& t) { return t.n_tok_tiles <= 1; });
  if (one_token_tile) return run_in_shrinking_chunks(products, tilings, pool);
  pool.parallel_for(total, 1, [&](int64_t begin, int64_t end) {
    size_t i = 0;
    for (int64_t item = begin; item < end; ++item) {
      while (item >= first_item[i + 1]) ++i;
      tilings[i].run(products[i], item - first_item[i]);
    }
  });
}

void matmul(const WeightMatrix& w, const PackedActivations& x, float* y, int64_t y_stride,
            ThreadPool& pool) {
  const MatmulProduct product{&w, &x, y, y_stride};
  matmul_all({&product, 1}, pool);
}

void matmul(const WeightMatrix& w, const float* x, int64_t n_tokens, float* y, ThreadPool& pool) {
  // One buffer per calling thread: no allocation once it has grown.
  thread_local PackedActivations packed;
  packed.pack(x, n_tokens, w.cols, w.type, pool);
  matmul(w, packed, y, w.rows, pool);
}

}  // namespace ingot::kernels
