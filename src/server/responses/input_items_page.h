#pragma once
// GET /v1/responses/{id}/input_items: a page of a stored response's input
// items, as OpenAI's list endpoints page: `order` (desc, the default, or
// asc), `limit` (1 to 100, 20 by default), `after` (an item id: the page
// starts past it).

#include <nlohmann/json.hpp>
#include <string_view>
#include <variant>

#include "server/api_error.h"

namespace ingot::server::responses {

// {object: "list", data, first_id, last_id, has_more}, or a 400 naming the
// query parameter.
std::variant<nlohmann::ordered_json, ApiError> input_items_page(const nlohmann::ordered_json& items,
                                                                std::string_view target);

}  // namespace ingot::server::responses
