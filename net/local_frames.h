// The framing both ends of the local socket share (local_socket.h): each
// message a 4-byte big-endian length and a JSON text, written and read
// within a deadline. Internal to net/.
#pragma once

#include <sys/un.h>

#include <chrono>
#include <string>

#include "model/common/result.h"

namespace cara::net::frames {

using Deadline = std::chrono::steady_clock::time_point;

std::string errno_text();
bool send_frame(int fd, const std::string& text, Deadline deadline);
// The frame's text, or an error saying what was wrong with it.
Result<std::string> receive_frame(int fd, Deadline deadline);
sockaddr_un address_of(const std::string& path);

}  // namespace cara::net::frames
