#include "model/recurrent_state.h"

namespace ingot::model {

int64_t RecurrentStates::length(SequenceId sequence) const {
  auto it = sequences_.find(sequence);
  return it == sequences_.end() ? 0 : it->second.length;
}

void RecurrentStates::set_length(SequenceId sequence, int64_t length) {
  auto it = sequences_.find(sequence);
  if (it != sequences_.end()) it->second.length = length;
}

float* RecurrentStates::slot(SequenceId sequence, int64_t index) {
  Sequence& s = sequences_[sequence];
  const int64_t per_layer = shape_.conv_floats + shape_.delta_floats;
  if (s.values.empty()) s.values.assign(size_t(shape_.n_layers * per_layer), 0.0f);
  return s.values.data() + index * per_layer;
}

}  // namespace ingot::model
