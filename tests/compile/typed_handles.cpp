// Typed handles (issue 20): a message a daemon does not take must not
// compile. CTest compiles this file twice: with CARA_RIGHT_MESSAGE it must
// compile, without it the compiler must say the receiver does not accept
// the message (tests/CMakeLists.txt, "typed_handles").
#include <caf/event_based_actor.hpp>

#include "actors/interfaces.h"

namespace cara::actors {

void tell_slot(caf::event_based_actor* self, const MatchInfo& match) {
#ifdef CARA_RIGHT_MESSAGE
  self->send(match.slot, ReleaseSlot{match.claim_id});
#else
  // A slot does not take a schedd's match batch.
  self->send(match.slot, MatchBatch{{match}});
#endif
}

}  // namespace cara::actors
