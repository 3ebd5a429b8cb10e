// The node protocol is typed (issue 28): a switch over a slot call's kind
// that leaves one out does not compile (-Wswitch -Werror). CTest compiles
// this file twice: with CARA_EVERY_KIND it must compile, without it the
// compiler must name the kind left out (tests/CMakeLists.txt).
#include "actors/node_messages.h"

namespace cara::actors {

int weight(const SlotCall& call) {
  switch (call.kind) {
    case SlotCallKind::Match: return 1;
    case SlotCallKind::Claim: return 2;
    case SlotCallKind::Activate: return 3;
    case SlotCallKind::Release: return 4;
    case SlotCallKind::JobExited: return 5;
#ifdef CARA_EVERY_KIND
    case SlotCallKind::Vacate: return 6;
    case SlotCallKind::ReleaseAtOnce: return 7;
#endif
  }
  return 0;
}

}  // namespace cara::actors
