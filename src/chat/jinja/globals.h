#pragma once
// The global functions every template sees: range, namespace, dict,
// raise_exception (transformers), strftime_now (transformers), and
// Jinja2's cycler/joiner are left out as no chat template uses them.

#include <memory>

#include "chat/jinja/interpreter.h"

namespace ingot::chat::jinja {

// A frame holding the globals; shared by every render (never written to).
std::shared_ptr<Frame> global_frame();

}  // namespace ingot::chat::jinja
