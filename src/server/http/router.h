#pragma once
// Maps method and path to a handler, and knows which routes need the API
// key and a JSON body, so that 401/404/405/415 are answered before a
// handler (or even the body) is touched.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "server/http/http_exchange.h"

namespace ingot::server {

using RouteHandler = std::function<asio::awaitable<void>(HttpExchange&)>;

struct Route {
  http::verb method;
  // A segment written {name} matches any one non-empty segment: the
  // handler reads it with path_parameter.
  std::string path;
  RouteHandler handler;
  bool requires_auth = true;
  bool json_body = false;  // a POST whose body must be application/json
};

// Whether the path fits the route's pattern, segment by segment.
bool path_matches(std::string_view pattern, std::string_view path);

// The segment of `path` at the position of the pattern's {name}; empty when
// the pattern has no such segment.
std::string path_parameter(std::string_view pattern, std::string_view path, std::string_view name);

class Router {
 public:
  void add(Route route) { routes_.push_back(std::move(route)); }
  const std::vector<Route>& routes() const { return routes_; }
  // "GET /health", "POST /v1/chat/completions"...: every route, in the
  // order added.
  std::vector<std::string> endpoints() const;

  struct Match {
    const Route* route = nullptr;  // null: no route for this method
    bool path_known = false;       // some method serves this path (405, not 404)
    std::string allowed;           // the Allow header for a 405
  };
  Match match(http::verb method, std::string_view path) const;

 private:
  std::vector<Route> routes_;
};

}  // namespace ingot::server
