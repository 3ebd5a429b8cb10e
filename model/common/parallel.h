// Work split over threads with a deterministic result: [0, n) is cut into
// contiguous chunks, one per thread, and each index's result lands in its
// own place, so the caller merges in index order and gets what one thread
// would have made (issue 30: "the matchmaking phase parallel over cores
// with a deterministic merge"). The model stays free of clocks and I/O;
// threads change how fast, never what.
#pragma once

#include <cstddef>
#include <functional>

namespace cara {

// Calls `fn(begin, end)` for the chunks of [0, n), the first on this thread
// and the others on up to `threads` - 1 new ones, and returns when all are
// done. Chunks smaller than `min_chunk` are not worth a thread: fewer
// threads are used. An exception thrown by a chunk is rethrown here (the
// first chunk's first) after every thread has ended.
void parallel_chunks(std::size_t n, int threads, std::size_t min_chunk,
                     const std::function<void(std::size_t, std::size_t)>& fn);

}  // namespace cara
