#include "server/responses/input_items_page.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <vector>

#include "server/http/query_string.h"

namespace ingot::server::responses {
namespace {

using json = nlohmann::ordered_json;

std::optional<int> limit_of(const std::optional<std::string>& text) {
  if (!text) return 20;
  int limit = 0;
  auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), limit);
  if (error != std::errc() || end != text->data() + text->size() || limit < 1 || limit > 100) {
    return std::nullopt;
  }
  return limit;
}

}  // namespace

std::variant<json, ApiError> input_items_page(const json& items, std::string_view target) {
  const std::string order = query_parameter(target, "order").value_or("desc");
  if (order != "asc" && order != "desc") {
    return invalid_request("'order' must be asc or desc.", "order");
  }
  const std::optional<int> limit = limit_of(query_parameter(target, "limit"));
  if (!limit) return invalid_request("'limit' must be an integer from 1 to 100.", "limit");
  std::vector<const json*> ordered;
  for (const json& item : items) ordered.push_back(&item);
  if (order == "desc") std::reverse(ordered.begin(), ordered.end());
  size_t first = 0;
  if (std::optional<std::string> after = query_parameter(target, "after")) {
    while (first < ordered.size() && (*ordered[first])["id"] != *after) ++first;
    if (first == ordered.size()) {
      return invalid_request("'after' names no input item of this response.", "after");
    }
    ++first;
  }
  json data = json::array();
  for (size_t i = first; i < ordered.size() && data.size() < static_cast<size_t>(*limit); ++i) {
    data.push_back(*ordered[i]);
  }
  json page = {{"object", "list"}, {"data", data}};
  page["first_id"] = data.empty() ? json(nullptr) : data.front()["id"];
  page["last_id"] = data.empty() ? json(nullptr) : data.back()["id"];
  page["has_more"] = first + data.size() < ordered.size();
  return page;
}

}  // namespace ingot::server::responses
