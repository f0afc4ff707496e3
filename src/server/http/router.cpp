#include "server/http/router.h"

namespace ingot::server {
namespace {

// The next segment of a path (after its '/'), consumed from `rest`.
std::string_view next_segment(std::string_view& rest) {
  if (!rest.empty() && rest.front() == '/') rest.remove_prefix(1);
  const size_t end = rest.find('/');
  std::string_view segment = rest.substr(0, end);
  rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
  return segment;
}

bool is_parameter(std::string_view segment) {
  return segment.size() > 2 && segment.front() == '{' && segment.back() == '}';
}

}  // namespace

bool path_matches(std::string_view pattern, std::string_view path) {
  if (pattern.find('{') == std::string_view::npos) return pattern == path;
  while (!pattern.empty() || !path.empty()) {
    if (pattern.empty() || path.empty()) return false;
    const std::string_view want = next_segment(pattern);
    const std::string_view got = next_segment(path);
    if (is_parameter(want) ? got.empty() : want != got) return false;
  }
  return true;
}

std::string path_parameter(std::string_view pattern, std::string_view path, std::string_view name) {
  while (!pattern.empty() && !path.empty()) {
    const std::string_view want = next_segment(pattern);
    const std::string_view got = next_segment(path);
    if (is_parameter(want) && want.substr(1, want.size() - 2) == name) return std::string(got);
  }
  return {};
}

std::vector<std::string> Router::endpoints() const {
  std::vector<std::string> out;
  for (const Route& route : routes_) {
    out.push_back(std::string(http::to_string(route.method)) + " " + route.path);
  }
  return out;
}

// A GET route answers HEAD too (the exchange then sends the head alone),
// as RFC 9110 asks of every server.
Router::Match Router::match(http::verb method, std::string_view path) const {
  Match match;
  for (const Route& route : routes_) {
    if (!path_matches(route.path, path)) continue;
    match.path_known = true;
    if (!match.allowed.empty()) match.allowed += ", ";
    match.allowed += std::string(http::to_string(route.method));
    if (route.method == http::verb::get) match.allowed += ", HEAD";
    if (route.method == method || (route.method == http::verb::get && method == http::verb::head)) {
      match.route = &route;
    }
  }
  return match;
}

}  // namespace ingot::server
