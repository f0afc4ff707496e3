#include "model/forward/adapted_matmul.h"

namespace ingot::model {

void AdaptedMatmul::run(std::span<const kernels::MatmulProduct> products,
                        std::span<const LoraOutput> outputs, int64_t layer, const Batch& batch,
                        const int64_t* rows, int64_t n_rows, PackedInput& lora_input,
                        ThreadPool& pool) {
  if (!batch.has_lora()) return kernels::matmul_all(products, pool);
  deltas_.group_rows(batch, rows, n_rows);
  products_.assign(products.begin(), products.end());
  deltas_.add_down_products(layer, outputs, lora_input, products_, pool);
  kernels::matmul_all(products_, pool);
  deltas_.add_deltas(outputs, pool);
}

void run_projections(AdaptedMatmul* adapted, std::span<const kernels::MatmulProduct> products,
                     std::span<const LoraOutput> outputs, int64_t layer, const Batch& batch,
                     const int64_t* rows, int64_t n_rows, PackedInput& lora_input,
                     ThreadPool& pool) {
  if (adapted == nullptr) return kernels::matmul_all(products, pool);
  adapted->run(products, outputs, layer, batch, rows, n_rows, lora_input, pool);
}

}  // namespace ingot::model
