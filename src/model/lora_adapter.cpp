#include "model/lora_adapter.h"

#include <filesystem>
#include <string_view>
#include <vector>

#include "gguf/reader.h"
#include "kernels/dequantize.h"
#include "kernels/element_type.h"
#include "kernels/half.h"
#include "kernels/ops_low_rank.h"

namespace ingot::model {
namespace {

struct TargetName {
  LoraTarget target;
  std::string_view suffix;
};

constexpr TargetName kTargetNames[] = {
    {LoraTarget::kQ, "attn_q.weight"},      {LoraTarget::kK, "attn_k.weight"},
    {LoraTarget::kV, "attn_v.weight"},      {LoraTarget::kOutput, "attn_output.weight"},
    {LoraTarget::kGate, "ffn_gate.weight"}, {LoraTarget::kUp, "ffn_up.weight"},
    {LoraTarget::kDown, "ffn_down.weight"}};

// The projection's input and output widths in the base model.
std::pair<int64_t, int64_t> base_shape(LoraTarget target, const ModelConfig& c) {
  switch (target) {
    case LoraTarget::kQ:
      return {c.n_embd, c.q_dim()};
    case LoraTarget::kK:
    case LoraTarget::kV:
      return {c.n_embd, c.kv_dim()};
    case LoraTarget::kOutput:
      return {c.q_dim(), c.n_embd};
    case LoraTarget::kGate:
    case LoraTarget::kUp:
      return {c.n_embd, c.n_ff};
    case LoraTarget::kDown:
      return {c.n_ff, c.n_embd};
  }
  return {0, 0};
}

Status check_tensor(const gguf::TensorInfo& tensor) {
  if (tensor.dims.size() != 2) {
    return invalid_format("tensor " + std::string(tensor.name) + " is not a matrix");
  }
  if (!kernels::element_type_info(tensor.type).supported ||
      !kernels::row_bytes(tensor.type, tensor.dims[0])) {
    return unsupported("tensor " + std::string(tensor.name) + " has element type " +
                       std::string(kernels::element_type_name(tensor.type)));
  }
  return {};
}

// B's `out` rows of `rank` in the low-rank kernel's blocked layout, F16.
std::vector<uint16_t> low_rank_blocks(const gguf::TensorInfo& b, int64_t rank, int64_t out) {
  const size_t row_stride = *kernels::row_bytes(b.type, rank);
  std::vector<uint16_t> blocks(size_t(kernels::low_rank_size(out, rank)), 0);
  std::vector<float> row(static_cast<size_t>(rank));
  for (int64_t o = 0; o < out; ++o) {
    kernels::dequantize_row(b.type, static_cast<const uint8_t*>(b.data) + o * row_stride,
                            row.data(), rank);
    for (int64_t k = 0; k < rank; ++k) {
      blocks[size_t(kernels::low_rank_offset(o, k, rank))] = kernels::f32_to_f16(row[k]);
    }
  }
  return blocks;
}

// The pair for "blk.L.<suffix>", checked against the base projection.
Result<LoraPair> read_pair(const gguf::GgufFile& file, const std::string& weight, int64_t in,
                           int64_t out) {
  const gguf::TensorInfo* a = file.find_tensor(weight + ".lora_a");
  const gguf::TensorInfo* b = file.find_tensor(weight + ".lora_b");
  if (a == nullptr && b == nullptr) return LoraPair{};
  if (a == nullptr || b == nullptr) {
    return invalid_format(weight + " has only one of its lora_a and lora_b tensors");
  }
  INGOT_RETURN_IF_ERROR(check_tensor(*a));
  INGOT_RETURN_IF_ERROR(check_tensor(*b));
  const int64_t rank = a->dims[1];
  if (a->dims[0] != in || b->dims[1] != out || b->dims[0] != rank || rank <= 0) {
    return invalid_format(weight + ": lora_a is [" + std::to_string(a->dims[1]) + "][" +
                          std::to_string(a->dims[0]) + "] and lora_b [" +
                          std::to_string(b->dims[1]) + "][" + std::to_string(b->dims[0]) +
                          "], where the model's projection is [" + std::to_string(out) + "][" +
                          std::to_string(in) + "]");
  }
  LoraPair pair;
  pair.rank = rank;
  pair.in = in;
  pair.out = out;
  pair.a = {a->type, a->data, rank, in, *kernels::row_bytes(a->type, in)};
  pair.b_blocks = low_rank_blocks(*b, rank, out);
  return pair;
}

// Every tensor of the file must be one ingot applies.
Status check_targets(const gguf::GgufFile& file) {
  for (const gguf::TensorInfo& tensor : file.tensors()) {
    bool known = false;
    for (const TargetName& target : kTargetNames) {
      const std::string a = std::string(target.suffix) + ".lora_a";
      const std::string b = std::string(target.suffix) + ".lora_b";
      known = known || tensor.name.ends_with(a) || tensor.name.ends_with(b);
    }
    if (!known || !tensor.name.starts_with("blk.")) {
      return unsupported("adapter tensor " + std::string(tensor.name) +
                         ": ingot adapts the attention and feed-forward projections only");
    }
  }
  return {};
}

}  // namespace

Result<std::shared_ptr<const LoraAdapter>> LoraAdapter::load(const std::string& path,
                                                             const ModelConfig& config) {
  INGOT_ASSIGN_OR_RETURN(gguf::GgufFile file, gguf::GgufFile::open(path));
  const gguf::Metadata& metadata = file.metadata();
  if (metadata.get_or<std::string>("general.type", "") != "adapter" ||
      metadata.get_or<std::string>("adapter.type", "") != "lora") {
    return invalid_format(path +
                          " is not a LoRA adapter (general.type adapter, adapter.type lora)");
  }
  if (metadata.architecture() != config.traits.name) {
    return invalid_argument(path + " adapts a " + std::string(metadata.architecture()) +
                            " model, not this " + std::string(config.traits.name) + " one");
  }
  if (config.traits.hybrid || config.experts.count > 0 || config.traits.gemma ||
      config.traits.encoder) {
    return unsupported("LoRA adapters on " + std::string(config.traits.name) +
                       " models (ingot adapts plain transformers)");
  }
  INGOT_RETURN_IF_ERROR(check_targets(file));
  auto adapter = std::make_shared<LoraAdapter>();
  adapter->path_ = path;
  adapter->name_ = std::filesystem::path(path).stem().string();
  adapter->alpha_ = metadata.get_or<float>("adapter.lora.alpha", 0.0f);
  adapter->file_ = std::move(file);  // its mapping stays where it is
  adapter->layers_.resize(size_t(config.n_layers));
  bool any = false;
  for (int64_t layer = 0; layer < config.n_layers; ++layer) {
    for (const TargetName& target : kTargetNames) {
      const auto [in, out] = base_shape(target.target, config);
      const std::string weight = "blk." + std::to_string(layer) + "." + std::string(target.suffix);
      INGOT_ASSIGN_OR_RETURN(LoraPair pair, read_pair(*adapter->file_, weight, in, out));
      any = any || pair.rank > 0;
      adapter->layers_[size_t(layer)][size_t(target.target)] = std::move(pair);
    }
  }
  if (!any) return invalid_format(path + " adapts none of the model's projections");
  return std::shared_ptr<const LoraAdapter>(std::move(adapter));
}

}  // namespace ingot::model
