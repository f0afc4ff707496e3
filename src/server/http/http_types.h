#pragma once
// The Boost.Beast/Asio names the HTTP layer uses, in one place.

#include <boost/asio.hpp>
#include <boost/beast.hpp>

namespace ingot::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

using HttpRequest = http::request<http::string_body>;

}  // namespace ingot::server
