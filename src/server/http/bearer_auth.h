#pragma once
// `Authorization: Bearer KEY` (or `x-api-key: KEY`) checking with a comparison whose time does
// not depend on where the strings first differ.

#include <string_view>

namespace ingot::server {

bool constant_time_equal(std::string_view a, std::string_view b);

// True when `authorization` (the header's value) carries `api_key`.
bool bearer_matches(std::string_view authorization, std::string_view api_key);

}  // namespace ingot::server
