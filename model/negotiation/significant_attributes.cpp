#include "model/negotiation/significant_attributes.h"

#include "model/classad/references.h"
#include "model/negotiation/slot_board.h"
#include "model/negotiation/slot_memo.h"
#include "model/schedd/autocluster.h"

namespace cara::negotiation {

namespace {

// The slots' own part, each remembered ad's worked out once: the lists the
// slots read (by number, each once), merged.
classad::NameSet remembered_reads(const std::vector<classad::ClassAd>& slots, SlotMemo& memo) {
  memo.trim_significant();
  std::vector<unsigned char> used;
  for (const classad::ClassAd& s : slots) {
    RememberedSlot* e = memo.find(s);
    int id = e != nullptr ? e->significant : -1;
    if (id < 0) {
      const classad::NameSet own = schedd::SignificantAttributes::from_slots({&s}, {}).names();
      id = memo.significant_id(std::vector<std::string>(own.begin(), own.end()));
      if (e != nullptr) e->significant = id;
    }
    if (used.size() <= static_cast<std::size_t>(id)) used.resize(static_cast<std::size_t>(id) + 1, 0);
    used[static_cast<std::size_t>(id)] = 1;
  }
  classad::NameSet names;
  for (std::size_t id = 0; id < used.size(); ++id)
    if (used[id] != 0) {
      const std::vector<std::string>& list = memo.significant_list(static_cast<int>(id));
      names.insert(list.begin(), list.end());
    }
  return names;
}

std::vector<const classad::ExprTree*> negotiator_expressions(const NegotiatorPolicy& policy) {
  std::vector<const classad::ExprTree*> exprs;
  for (const classad::ExprPtr* e : {&policy.pre_job_rank, &policy.post_job_rank,
                                    &policy.preemption_requirements, &policy.preemption_rank})
    if (*e) exprs.push_back(e->get());
  return exprs;
}

// The slots' reads `names`, with the negotiator's expressions read as
// from_slots() reads them (with the first slot as MY) and what
// NEGOTIATOR_JOB_CONSTRAINT reads of the job (its MY: an autocluster's
// jobs are then all inside it or all outside).
std::vector<std::string> with_policy_reads(const NegotiatorPolicy& policy, classad::NameSet names,
                                           const std::vector<const classad::ClassAd*>& first) {
  const classad::NameSet negotiator =
      schedd::SignificantAttributes::from_slots(first, negotiator_expressions(policy)).names();
  names.insert(negotiator.begin(), negotiator.end());
  if (policy.job_constraint) {
    classad::References refs;
    classad::collect_references(*policy.job_constraint, nullptr, refs);
    names.insert(refs.external.begin(), refs.external.end());
  }
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace

std::vector<std::string> significant_attributes(const NegotiatorPolicy& policy,
                                                const std::vector<classad::ClassAd>& slots, SlotMemo* memo) {
  std::vector<const classad::ClassAd*> first;
  if (!slots.empty()) first.push_back(&slots.front());
  if (memo != nullptr) return with_policy_reads(policy, remembered_reads(slots, *memo), first);
  // Every slot's, and the negotiator's with them (from_slots reads those
  // with the first slot as MY).
  std::vector<const classad::ClassAd*> all;
  all.reserve(slots.size());
  for (const classad::ClassAd& s : slots) all.push_back(&s);
  return with_policy_reads(policy, schedd::SignificantAttributes::from_slots(all, {}).names(), first);
}

std::vector<std::string> significant_attributes(const NegotiatorPolicy& policy, SlotBoard& board) {
  std::vector<const classad::ClassAd*> first;
  if (const classad::ClassAd* ad = board.first()) first.push_back(ad);
  return with_policy_reads(policy, board.significant_reads(), first);
}

}  // namespace cara::negotiation
