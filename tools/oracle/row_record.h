#pragma once
// One row of logits as the golden files record it: the greedy token, the
// eight best ids with their logits, and the row's range (what parity is
// measured against).

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

inline nlohmann::json row_record(const float* logits, int n_vocab) {
  std::vector<int> ids(static_cast<size_t>(n_vocab));
  for (int i = 0; i < n_vocab; ++i) ids[size_t(i)] = i;
  std::partial_sort(ids.begin(), ids.begin() + 8, ids.end(),
                    [&](int a, int b) { return logits[a] > logits[b]; });
  nlohmann::json top = nlohmann::json::array();
  for (int k = 0; k < 8; ++k) top.push_back({ids[size_t(k)], logits[ids[size_t(k)]]});
  const auto [lo, hi] = std::minmax_element(logits, logits + n_vocab);
  return {{"token", ids[0]}, {"top", top}, {"range", *hi - *lo}};
}
