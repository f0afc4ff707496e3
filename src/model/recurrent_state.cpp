#include "model/recurrent_state.h"

#include <algorithm>

namespace ingot::model {

int64_t RecurrentStates::length(SequenceId sequence) const {
  auto it = sequences_.find(sequence);
  return it == sequences_.end() ? 0 : it->second.length;
}

void RecurrentStates::set_length(SequenceId sequence, int64_t length) {
  auto it = sequences_.find(sequence);
  if (it != sequences_.end()) it->second.length = length;
}

void RecurrentStates::save_snapshot(SequenceId sequence, int64_t length) {
  auto it = sequences_.find(sequence);
  if (it == sequences_.end() || it->second.length != length || it->second.values.empty()) return;
  Sequence& s = it->second;
  for (const Snapshot& snapshot : s.snapshots) {
    if (snapshot.length == length) return;
  }
  if (s.snapshots.size() == kMaxSnapshots) s.snapshots.erase(s.snapshots.begin());
  s.snapshots.push_back({length, s.values});
}

int64_t RecurrentStates::resumable(SequenceId sequence, int64_t wanted) const {
  auto it = sequences_.find(sequence);
  if (it == sequences_.end()) return 0;
  const Sequence& s = it->second;
  if (s.length <= wanted) return s.length;
  int64_t best = 0;
  for (const Snapshot& snapshot : s.snapshots) {
    if (snapshot.length <= wanted) best = std::max(best, snapshot.length);
  }
  for (size_t i = 0; i < s.n_checkpoints; ++i) {
    if (s.checkpoints[i].length <= wanted) best = std::max(best, s.checkpoints[i].length);
  }
  return best;
}

const RecurrentStates::Snapshot* RecurrentStates::find_kept(const Sequence& s, int64_t length) {
  for (const Snapshot& snapshot : s.snapshots) {
    if (snapshot.length == length) return &snapshot;
  }
  for (size_t i = 0; i < s.n_checkpoints; ++i) {
    if (s.checkpoints[i].length == length) return &s.checkpoints[i];
  }
  return nullptr;
}

bool RecurrentStates::restore(SequenceId sequence, int64_t length) {
  auto it = sequences_.find(sequence);
  if (it == sequences_.end()) return false;
  Sequence& s = it->second;
  if (length == s.length) return true;
  const Snapshot* found = find_kept(s, length);
  if (found == nullptr) return false;
  s.values = found->values;
  s.length = length;
  std::erase_if(s.snapshots, [&](const Snapshot& snapshot) { return snapshot.length > length; });
  s.n_checkpoints = 0;
  return true;
}

void RecurrentStates::clear_checkpoints(SequenceId sequence) {
  auto it = sequences_.find(sequence);
  if (it != sequences_.end()) it->second.n_checkpoints = 0;
}

float* RecurrentStates::add_checkpoint(SequenceId sequence, int64_t length) {
  Sequence& s = sequences_[sequence];
  if (s.n_checkpoints == s.checkpoints.size()) s.checkpoints.emplace_back();
  Snapshot& checkpoint = s.checkpoints[s.n_checkpoints++];
  checkpoint.length = length;
  checkpoint.values.resize(size_t(bytes_per_sequence()) / sizeof(float));
  return checkpoint.values.data();
}

size_t RecurrentStates::snapshot_count(SequenceId sequence) const {
  auto it = sequences_.find(sequence);
  return it == sequences_.end() ? 0 : it->second.snapshots.size();
}

float* RecurrentStates::slot(SequenceId sequence, int64_t index) {
  Sequence& s = sequences_[sequence];
  const int64_t per_layer = shape_.conv_floats + shape_.delta_floats;
  if (s.values.empty()) s.values.assign(size_t(shape_.n_layers * per_layer), 0.0f);
  return s.values.data() + index * per_layer;
}

}  // namespace ingot::model
