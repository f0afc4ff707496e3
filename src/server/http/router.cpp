#include "server/http/router.h"

namespace ingot::server {

Router::Match Router::match(http::verb method, std::string_view path) const {
  Match match;
  for (const Route& route : routes_) {
    if (route.path != path) continue;
    match.path_known = true;
    if (!match.allowed.empty()) match.allowed += ", ";
    match.allowed += std::string(http::to_string(route.method));
    if (route.method == method) match.route = &route;
  }
  return match;
}

}  // namespace ingot::server
