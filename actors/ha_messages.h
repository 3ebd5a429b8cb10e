// The messages of the central managers' high-availability group (DESIGN.md
// "High availability"; actors/had.h): heartbeats between the had actors,
// the had's word to its negotiator, and the accountant's replication from
// the active negotiator to the standbys. Registered in message_types.cpp.
#pragma once

#include <caf/meta/type_name.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "actors/handles.h"

namespace cara::actors {

// From a had to the others, every quarter of HAD_CONNECTION_TIMEOUT: who
// it is (its HAD_LIST index), what it knows (model/ha/election.h), its
// negotiator (where the active one sends the accountant) and its collector
// (that the others' daemons report to as well).
struct HadHeartbeat {
  std::int32_t member = 0;
  std::int64_t term = 0;
  bool active = false;
  std::int64_t version_term = 0, version_seq = 0;
  std::int64_t sees_active_term = 0;  // an active member it hears (MemberView)
  negotiator_actor negotiator;
  collector_actor collector;
};
template <class I>
typename I::result_type inspect(I& f, HadHeartbeat& x) {
  return f(caf::meta::type_name("HadHeartbeat"), x.member, x.term, x.active, x.version_term, x.version_seq,
           x.sees_active_term, x.negotiator, x.collector);
}

// To a had, from its node: the other central managers' hads as they were
// reached (by HAD_LIST index; a null handle: not reached).
struct HadPeers {
  std::vector<std::int32_t> members;
  std::vector<had_actor> hads;
};
template <class I>
typename I::result_type inspect(I& f, HadPeers& x) {
  return f(caf::meta::type_name("HadPeers"), x.members, x.hads);
}

// From a had to its negotiator: be active in `term` (first taking the
// state of `catch_up` when it is set) or stand by; `standbys` are the
// reachable standbys' negotiators, that the active one replicates to.
struct NegotiatorRole {
  bool active = false;
  std::int64_t term = 0;
  negotiator_actor catch_up;
  std::vector<negotiator_actor> standbys;
  std::string reason;
};
template <class I>
typename I::result_type inspect(I& f, NegotiatorRole& x) {
  return f(caf::meta::type_name("NegotiatorRole"), x.active, x.term, x.catch_up, x.standbys, x.reason);
}

// From a negotiator to its had: the version of the accountant it holds
// (after each commit, and when it starts: how the had finds it).
struct AccountantVersion {
  std::int64_t term = 0, seq = 0;
};
template <class I>
typename I::result_type inspect(I& f, AccountantVersion& x) {
  return f(caf::meta::type_name("AccountantVersion"), x.term, x.seq);
}

// The accountant of the active negotiator, committed in `term` as commit
// `seq` (persistence/accountant_store.h, encode_snapshot): a standby
// stores it as its own and answers once it is on disk. Also the answer to
// ReplicaFetch (a newly active negotiator taking a newer state).
struct ReplicaBatch {
  std::int64_t term = 0, seq = 0;
  std::string snapshot;
};
template <class I>
typename I::result_type inspect(I& f, ReplicaBatch& x) {
  return f(caf::meta::type_name("ReplicaBatch"), x.term, x.seq, x.snapshot);
}
struct ReplicaFetch {};
template <class I>
typename I::result_type inspect(I& f, ReplicaFetch&) {
  return f(caf::meta::type_name("ReplicaFetch"));
}

// A had's view, for tests and tools.
struct HadStatusQuery {};
template <class I>
typename I::result_type inspect(I& f, HadStatusQuery&) {
  return f(caf::meta::type_name("HadStatusQuery"));
}
struct HadStatus {
  std::int32_t member = 0;
  bool active = false;
  std::int64_t term = 0;
  std::int64_t since = 0;               // when the role last changed (pool clock, s)
  std::vector<std::int32_t> reachable;  // the other members it hears
};
template <class I>
typename I::result_type inspect(I& f, HadStatus& x) {
  return f(caf::meta::type_name("HadStatus"), x.member, x.active, x.term, x.since, x.reachable);
}

}  // namespace cara::actors
