#pragma once
// What a web page may do with the server. A page the user visits can send
// requests to a server on loopback: across origins (a page of another site
// calling 127.0.0.1), or through DNS rebinding (its own name, re-resolved
// to 127.0.0.1, so that the request names the page's host). The first is
// answered by CORS, allowed only for loopback origins and those the
// operator names; the second by the Host header, which on loopback must
// name a loopback host or one the operator allows.

#include <string>
#include <string_view>
#include <vector>

namespace ingot::server {

struct BrowserPolicy {
  bool listening_on_loopback = true;
  // --allowed-host NAME (a host name, without port); "*" allows any.
  std::vector<std::string> allowed_hosts;
  // --cors-origin ORIGIN (scheme://host[:port]); "*" allows any.
  std::vector<std::string> cors_origins;
};

// Whether the address the server listens on is a loopback one.
bool is_loopback_address(std::string_view address);

// Whether a request's Host header (host[:port]) names this server: any
// host when it listens beyond loopback, else a loopback name or address
// (localhost, *.localhost, 127.0.0.0/8, [::1]) or one allowed by name.
// A request without Host (HTTP/1.0, no browser) passes.
bool host_allowed(const BrowserPolicy& policy, std::string_view host_header);

// Whether a page of `origin` may call the server: a loopback origin, the
// request's own (its host:port is the Host the request names), or one the
// operator named.
bool origin_allowed(const BrowserPolicy& policy, std::string_view origin,
                    std::string_view host_header);

}  // namespace ingot::server
