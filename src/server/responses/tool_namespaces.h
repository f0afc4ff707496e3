#pragma once
// Namespace tools ({"type": "namespace", "name", "tools": [functions]}):
// the chat template and the tool-call grammar know flat function names,
// so a namespaced function is offered to the model as `space__name` and
// its calls are answered as the API names them, {namespace, name}.

#include <map>
#include <string>
#include <string_view>

namespace ingot::server::responses {

struct NamespacedName {
  std::string space;
  std::string name;
};

// The namespaced functions of a request, by the flat name the model sees.
using ToolNamespaces = std::map<std::string, NamespacedName>;

inline std::string flat_tool_name(std::string_view space, std::string_view name) {
  return std::string(space) + "__" + std::string(name);
}

}  // namespace ingot::server::responses
