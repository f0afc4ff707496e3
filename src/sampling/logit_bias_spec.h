#pragma once
// llama-server's `--logit-bias TOKEN_ID(+|-)BIAS` (`15043+1`, `15043-1`,
// `2-inf`): a bias the server adds to every request's logits.

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace ingot::sampling {

// The token and its bias, or nothing when the text is not of that form
// (a bias is a finite number, or `inf` with its sign).
std::optional<std::pair<int32_t, float>> parse_logit_bias_spec(std::string_view spec);

}  // namespace ingot::sampling
