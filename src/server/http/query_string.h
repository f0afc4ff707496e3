#pragma once
// The query of a request target (?a=1&b=two), one parameter at a time,
// percent-decoded.

#include <optional>
#include <string>
#include <string_view>

namespace ingot::server {

// The value of the first `name=` in the target's query; absent when the
// query does not name it or its encoding is broken.
std::optional<std::string> query_parameter(std::string_view target, std::string_view name);

}  // namespace ingot::server
