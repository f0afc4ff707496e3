#pragma once
// The recurrent state of hybrid models' linear-attention layers: for each
// sequence and layer, the convolution's window of past inputs and the
// delta rule's state matrices (see LinearAttentionConfig). Unlike keys and
// values, a state holds the whole past at once: it can move forward, or
// start over from nothing, but not go back to an earlier length.
//
// A sequence's state is allocated, zeroed, at its first token and freed
// when the sequence is dropped, so memory follows the live sequences.
//
// Snapshots make going back possible where it matters: a copy of the state
// at a chosen length (the end of a prompt, a boundary the engine picks)
// lets a later request that shares that prefix resume there. A sequence
// keeps its last kMaxSnapshots; a snapshot past a length the sequence goes
// back to is forgotten with the tokens it covered.

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ingot::model {

using SequenceId = int32_t;

struct RecurrentShape {
  int64_t n_layers = 0;
  int64_t conv_floats = 0;   // per layer and sequence
  int64_t delta_floats = 0;  // per layer and sequence
};

class RecurrentStates {
 public:
  static constexpr size_t kMaxSnapshots = 4;

  RecurrentStates() = default;
  explicit RecurrentStates(RecurrentShape shape) : shape_(shape) {}

  bool empty_shape() const { return shape_.n_layers == 0; }
  const RecurrentShape& shape() const { return shape_; }

  // Tokens the sequence's state has absorbed: 0 for a sequence not seen.
  int64_t length(SequenceId sequence) const;
  // The state is now `length` tokens long (the forward pass ran them).
  void set_length(SequenceId sequence, int64_t length);

  // The window and matrices of `sequence` in recurrent layer `index`,
  // zeroed at the sequence's first use.
  float* conv(SequenceId sequence, int64_t index) { return slot(sequence, index); }
  float* delta(SequenceId sequence, int64_t index) {
    return slot(sequence, index) + shape_.conv_floats;
  }

  // Keeps a copy of the live state, which has taken in `length` tokens.
  void save_snapshot(SequenceId sequence, int64_t length);
  // The longest length up to `wanted` the state can be put back to: its
  // own length, or a snapshot's; 0 when none fits.
  int64_t resumable(SequenceId sequence, int64_t wanted) const;
  // Puts the live state back to `length` (one resumable() gave), forgetting
  // the snapshots past it. False when no such state is kept.
  bool restore(SequenceId sequence, int64_t length);
  size_t snapshot_count(SequenceId sequence) const;

  // Speculative steps: a checkpoint is room for the state as it stands
  // after `length` tokens, filled by the forward pass while it runs a
  // batch's drafted tokens, so that the step can go back to the length it
  // accepts (restore() takes checkpoints as it takes snapshots). A
  // sequence's first checkpoint of a step replaces those of its last; the
  // memory is reused.
  void clear_checkpoints(SequenceId sequence);
  // [layer][conv_floats + delta_floats], as conv() and delta() lay it out.
  float* add_checkpoint(SequenceId sequence, int64_t length);

  void drop(SequenceId sequence) { sequences_.erase(sequence); }
  void clear() { sequences_.clear(); }

  // Bytes one sequence's state takes, over every layer.
  int64_t bytes_per_sequence() const {
    return shape_.n_layers * (shape_.conv_floats + shape_.delta_floats) * int64_t(sizeof(float));
  }

 private:
  struct Snapshot {
    int64_t length;
    std::vector<float> values;
  };
  struct Sequence {
    std::vector<float> values;  // [layer][conv_floats + delta_floats]
    int64_t length = 0;
    std::vector<Snapshot> snapshots;    // oldest first
    std::vector<Snapshot> checkpoints;  // the first n_checkpoints are this step's
    size_t n_checkpoints = 0;
  };

  static const Snapshot* find_kept(const Sequence& s, int64_t length);

  float* slot(SequenceId sequence, int64_t index);

  RecurrentShape shape_;
  std::unordered_map<SequenceId, Sequence> sequences_;
};

}  // namespace ingot::model
