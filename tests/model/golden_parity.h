#pragma once
// Golden parity with llama.cpp by teacher forcing (see ../shared/README.md):
// feed each golden prompt, then each golden token, and at every step compare
// the logits of the eight ids llama.cpp ranked highest. Two implementations
// round differently (summation order, activation quantization), so logits
// must agree within about 1% of the logit range, and the argmax must match
// wherever llama.cpp's top two are further apart than that.
//
// Float models agree to 0.04%. The quantized small-llama files sit at a
// median of 0.35-0.5% and a worst step of ~1.01%, and the same spread
// appears with exact F32 activations in place of packed Q8 ones: it is the
// golden run's own activation-quantization noise, amplified by the random
// weights, not ours to remove. They get 1.25% as their "about 1%".

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernels/dispatch.h"
#include "model/model.h"
#include "support/shared_data.h"

namespace ingot::model::golden {

// INGOT_ISA holds the parity tests to one kernel path, as it holds the
// ingot command, so that each path can be held to llama.cpp's logits on a
// machine that would take another.
inline const bool kIsaFromEnvironment = [] {
  const char* isa = std::getenv("INGOT_ISA");
  if (isa == nullptr || *isa == '\0') return false;
  const Status chosen = kernels::select_isa(isa);
  if (!chosen.ok()) {
    std::fprintf(stderr, "INGOT_ISA: %s\n", chosen.error().describe().c_str());
    std::exit(2);
  }
  return true;
}();

constexpr double kFloatTolerance = 0.01;  // of the logit range
constexpr double kQuantizedTolerance = 0.0125;
// The synthetic Gemma 4 in Q4_K_M amplifies that noise further: the scalar
// reference's own rounding lands past 1.25% on it, and every path's with
// it, so it gets the bound the scalar path needs.
constexpr double kNoisyQuantizedTolerance = 0.015;

inline double tolerance_for(const std::string& model) {
  if (model.ends_with("f16") || model == "stories260K") return kFloatTolerance;
  return model == "tiny-gemma4-q4_k_m" ? kNoisyQuantizedTolerance : kQuantizedTolerance;
}

// Sanitized builds run ~10x slower: they check the first steps of each
// case, which exercise every code path (prompt batch, then decode steps).
#if defined(INGOT_UNDER_SANITIZERS)
constexpr size_t kMaxSteps = 4;
#else
constexpr size_t kMaxSteps = 1 << 20;
#endif

struct GoldenStep {
  int32_t token;
  std::vector<std::pair<int32_t, float>> top;  // best first
};

struct GoldenCase {
  std::vector<int32_t> prompt;
  std::vector<GoldenStep> steps;
};

// One row's record: {"token": the greedy id, "top": [[id, logit], ...]}.
inline GoldenStep golden_step(const nlohmann::json& row) {
  GoldenStep step{row["token"].get<int32_t>(), {}};
  for (const auto& pair : row["top"]) step.top.emplace_back(pair[0], pair[1]);
  return step;
}

// Reads a fixture in ../shared/fixtures/golden's format from `path`.
inline std::vector<GoldenCase> read_golden_file(const std::string& path) {
  std::ifstream in(path);
  const nlohmann::json json = nlohmann::json::parse(in);
  std::vector<GoldenCase> cases;
  for (const auto& c : json["cases"]) {
    GoldenCase golden;
    golden.prompt = c["prompt_tokens"].get<std::vector<int32_t>>();
    for (const auto& s : c["steps"]) {
      if (golden.steps.size() == kMaxSteps) break;
      golden.steps.push_back(golden_step(s));
    }
    cases.push_back(std::move(golden));
  }
  return cases;
}

// How far one step's logits are from llama.cpp's.
struct StepComparison {
  double worst_error = 0;  // over the eight ids, as a fraction of the logit range
  bool argmax_checked = false;
  bool argmax_agrees = true;
  std::string disagreement;  // when the argmax differs: the two choices, for the log
};

inline StepComparison compare(const float* logits, int64_t n_vocab, const GoldenStep& golden,
                              double tolerance) {
  const auto [lo, hi] = std::minmax_element(logits, logits + n_vocab);
  const double range = double(*hi) - double(*lo);
  StepComparison result;
  for (const auto& [id, value] : golden.top) {
    result.worst_error = std::max(result.worst_error, std::fabs(logits[id] - value) / range);
  }
  const double golden_gap = golden.top[0].second - golden.top[1].second;
  if (golden_gap > tolerance * range) {
    result.argmax_checked = true;
    const int64_t ours = hi - logits;
    result.argmax_agrees = ours == golden.token;
    if (!result.argmax_agrees) {
      char text[160];
      std::snprintf(text, sizeof text,
                    "llama.cpp picks %d by %.2f%% of range; ingot picks %lld, %.2f%% above %d",
                    golden.token, 100 * golden_gap / range, static_cast<long long>(ours),
                    100 * (double(*hi) - logits[golden.token]) / range, golden.token);
      result.disagreement = text;
    }
  }
  return result;
}

// Totals over every step of every case, for the test's verdict and its log.
struct Parity {
  double worst_error = 0;
  int argmax_checked = 0;
  int argmax_agreed = 0;
  int steps = 0;
  std::vector<std::string> disagreements;  // "case c step s: ...", the first few

  void add(const StepComparison& step, size_t case_index, size_t step_index) {
    worst_error = std::max(worst_error, step.worst_error);
    argmax_checked += step.argmax_checked;
    argmax_agreed += step.argmax_checked && step.argmax_agrees;
    ++steps;
    if (!step.disagreement.empty() && disagreements.size() < 8) {
      disagreements.push_back("case " + std::to_string(case_index) + " step " +
                              std::to_string(step_index) + ": " + step.disagreement);
    }
  }
  void expect_within(double tolerance, const std::string& name) const {
    std::printf("[ parity ] %-22s max error %.3f%% of range, argmax %d/%d (%d steps)\n",
                name.c_str(), 100 * worst_error, argmax_agreed, argmax_checked, steps);
    for (const std::string& where : disagreements) std::printf("[ parity ]   %s\n", where.c_str());
    EXPECT_LE(worst_error, tolerance) << name;
    EXPECT_EQ(argmax_agreed, argmax_checked) << name;
  }
};

// The LoRA adapters case c runs with: lora[c], or none.
inline const LoraSet* lora_of(const std::vector<const LoraSet*>& lora, size_t c) {
  return c < lora.size() ? lora[c] : nullptr;
}

// Every case on its own sequence, one after another.
inline Parity run_sequentially(Model& model, const std::vector<GoldenCase>& cases, double tolerance,
                               ThreadPool& pool, KvCache::Types cache_types = {},
                               const std::vector<const LoraSet*>& lora = {}) {
  Parity parity;
  KvCache cache = model.make_cache(512, 0, cache_types);
  Batch batch;
  for (size_t c = 0; c < cases.size(); ++c) {
    const GoldenCase& golden = cases[c];
    const SequenceId sequence = SequenceId(c);
    batch.clear();
    for (size_t i = 0; i < golden.prompt.size(); ++i) {
      batch.add(golden.prompt[i], int64_t(i), sequence, i + 1 == golden.prompt.size(), false,
                lora_of(lora, c));
    }
    int64_t position = int64_t(golden.prompt.size());
    for (size_t s = 0; s < golden.steps.size(); ++s) {
      const GoldenStep& step = golden.steps[s];
      Result<Logits> logits = model.forward(batch, cache, pool);
      EXPECT_TRUE(logits.ok()) << logits.error().describe();
      if (!logits.ok()) return parity;
      parity.add(compare(logits->row(0), logits->n_vocab, step, tolerance), c, s);
      batch.clear();
      batch.add(step.token, position++, sequence, true, false, lora_of(lora, c));
    }
    cache.drop(sequence);
  }
  return parity;
}

// Every case on its own sequence, all in the same batches: the prompts'
// tokens interleaved in one batch, then one token of each per step.
inline Parity run_interleaved(Model& model, const std::vector<GoldenCase>& cases, double tolerance,
                              ThreadPool& pool, KvCache::Types cache_types = {},
                              const std::vector<const LoraSet*>& lora = {}) {
  Parity parity;
  KvCache cache = model.make_cache(512, 0, cache_types);
  Batch batch;
  size_t longest_prompt = 0, most_steps = 0;
  for (const GoldenCase& c : cases) {
    longest_prompt = std::max(longest_prompt, c.prompt.size());
    most_steps = std::max(most_steps, c.steps.size());
  }
  for (size_t i = 0; i < longest_prompt; ++i) {
    for (size_t c = 0; c < cases.size(); ++c) {
      const std::vector<int32_t>& prompt = cases[c].prompt;
      if (i < prompt.size()) {
        batch.add(prompt[i], int64_t(i), SequenceId(c), i + 1 == prompt.size(), false,
                  lora_of(lora, c));
      }
    }
  }
  // Which logits row belongs to which case: rows come in entry order.
  std::vector<size_t> row_case;
  for (const BatchEntry& e : batch.entries()) {
    if (e.wants_logits) row_case.push_back(size_t(e.sequence));
  }
  for (size_t s = 0; s < most_steps; ++s) {
    Result<Logits> logits = model.forward(batch, cache, pool);
    EXPECT_TRUE(logits.ok()) << logits.error().describe();
    if (!logits.ok()) return parity;
    for (size_t row = 0; row < row_case.size(); ++row) {
      parity.add(compare(logits->row(int64_t(row)), logits->n_vocab, cases[row_case[row]].steps[s],
                         tolerance),
                 row_case[row], s);
    }
    batch.clear();
    row_case.clear();
    for (size_t c = 0; c < cases.size(); ++c) {
      if (s + 1 >= cases[c].steps.size()) continue;
      const int64_t position = int64_t(cases[c].prompt.size() + s);
      batch.add(cases[c].steps[s].token, position, SequenceId(c), true, false, lora_of(lora, c));
      row_case.push_back(c);
    }
  }
  return parity;
}

}  // namespace ingot::model::golden
