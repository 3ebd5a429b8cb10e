// The dashboard's files (apps/web/assets/), compiled into the binary by
// cmake/CaraEmbed.cmake so that the endpoint needs no files at run time
// and no connection to the outside world.
#pragma once

#include <string_view>

namespace cara::web {

struct Asset {
  std::string_view path;  // "/index.html", "/dashboard.js", ...
  std::string_view content_type;
  std::string_view body;
};

// The asset served at `path` (null when none).
const Asset* find_asset(std::string_view path);

}  // namespace cara::web
