#include "model/node/pool_event.h"

namespace cara::node {

const char* event_kind_name(PoolEventKind kind) {
  switch (kind) {
    case PoolEventKind::Submitted: return "submitted";
    case PoolEventKind::Matched: return "matched";
    case PoolEventKind::Claimed: return "claimed";
    case PoolEventKind::Started: return "started";
    case PoolEventKind::Finished: return "finished";
    case PoolEventKind::Killed: return "killed";
    case PoolEventKind::Removed: return "removed";
    case PoolEventKind::Cycle: return "cycle";
  }
  return "?";
}

}  // namespace cara::node
