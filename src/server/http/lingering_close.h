#pragma once
// The end of a connection whose request was answered before its body was
// read (413, 401, 415, 431, ...). Closing at once would leave the unread
// body in the kernel's receive queue, and closing a socket with unread
// data sends a reset, which makes a client that is still uploading drop
// the answer it was sent (the `openai` SDK then reports a connection
// error, never the status). So, as nginx does: shut down the write side,
// read and discard what the client still sends, within bounds of time and
// size, and only then let the socket close.

#include <cstddef>

#include "server/http/http_options.h"
#include "server/http/http_types.h"

namespace ingot::server {

// Returns the number of bytes discarded. The caller closes the socket.
asio::awaitable<size_t> lingering_close(beast::tcp_stream& stream, LingerLimits limits);

}  // namespace ingot::server
