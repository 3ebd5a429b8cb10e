#include "model/common/parallel.h"

#include <algorithm>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace cara {

void parallel_chunks(std::size_t n, int threads, std::size_t min_chunk,
                     const std::function<void(std::size_t, std::size_t)>& fn) {
  std::size_t parts = static_cast<std::size_t>(std::max(threads, 1));
  if (min_chunk > 0) parts = std::min(parts, std::max<std::size_t>(n / min_chunk, 1));
  if (parts <= 1) {
    if (n > 0) fn(0, n);
    return;
  }
  std::vector<std::exception_ptr> errors(parts);
  auto run = [&](std::size_t part) {
    const std::size_t begin = n * part / parts, end = n * (part + 1) / parts;
    try {
      fn(begin, end);
    } catch (...) {
      errors[part] = std::current_exception();
    }
  };
  std::vector<std::thread> helpers;
  helpers.reserve(parts - 1);
  for (std::size_t part = 1; part < parts; ++part) {
    try {
      helpers.emplace_back(run, part);
    } catch (const std::system_error&) {
      run(part);  // no thread to be had: this one does the chunk
    }
  }
  run(0);
  for (std::thread& t : helpers) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace cara
