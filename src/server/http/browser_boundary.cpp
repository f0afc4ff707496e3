#include "server/http/browser_boundary.h"

#include <algorithm>
#include <cctype>

namespace ingot::server {
namespace {

std::string lowercase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return out;
}

// The host of "host", "host:port", "[v6]" or "[v6]:port", lowercased,
// brackets kept off.
std::string host_part(std::string_view authority) {
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return {};
    return lowercase(authority.substr(1, close - 1));
  }
  return lowercase(authority.substr(0, authority.find(':')));
}

bool is_ipv4_loopback(std::string_view host) {
  if (!host.starts_with("127.")) return false;
  int parts = 0;
  for (std::string_view rest = host; !rest.empty(); ++parts) {
    const size_t dot = rest.find('.');
    const std::string_view part = rest.substr(0, dot);
    if (part.empty() || part.size() > 3 ||
        !std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        std::stoi(std::string(part)) > 255) {
      return false;
    }
    rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
  }
  return parts == 4;
}

bool is_loopback_host(std::string_view host) {
  return host == "localhost" || host.ends_with(".localhost") || host == "::1" ||
         is_ipv4_loopback(host);
}

bool listed(const std::vector<std::string>& names, std::string_view name) {
  return std::any_of(names.begin(), names.end(), [&](const std::string& allowed) {
    return allowed == "*" || lowercase(allowed) == name;
  });
}

// "scheme://authority" of an Origin header, or empty when it is not one
// ("null", a path).
std::string_view origin_authority(std::string_view origin) {
  const size_t scheme_end = origin.find("://");
  if (scheme_end == std::string_view::npos || scheme_end == 0) return {};
  std::string_view authority = origin.substr(scheme_end + 3);
  if (authority.empty() || authority.find('/') != std::string_view::npos) return {};
  return authority;
}

}  // namespace

bool is_loopback_address(std::string_view address) {
  return is_loopback_host(host_part(address == "::1" ? "[::1]" : address));
}

bool host_allowed(const BrowserPolicy& policy, std::string_view host_header) {
  if (!policy.listening_on_loopback || host_header.empty()) return true;
  const std::string host = host_part(host_header);
  return is_loopback_host(host) || listed(policy.allowed_hosts, host);
}

bool origin_allowed(const BrowserPolicy& policy, std::string_view origin,
                    std::string_view host_header) {
  const std::string_view authority = origin_authority(origin);
  if (authority.empty()) return listed(policy.cors_origins, lowercase(origin));
  if (is_loopback_host(host_part(authority))) return true;
  if (lowercase(authority) == lowercase(host_header)) return true;  // the page is the server's
  return listed(policy.cors_origins, lowercase(origin));
}

}  // namespace ingot::server
