#include "model/forward/forward_pass.h"

#include "model/forward/decoder_pass.h"
#include "model/forward/encoder_pass.h"

namespace ingot::model {

std::unique_ptr<ForwardPass> make_forward_pass(const ModelConfig& config,
                                               const ModelWeights& weights) {
  if (config.traits.encoder) return std::make_unique<EncoderPass>(config, weights);
  return std::make_unique<DecoderPass>(config, weights);
}

}  // namespace ingot::model
