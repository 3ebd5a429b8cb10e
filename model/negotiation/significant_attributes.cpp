#include "model/negotiation/significant_attributes.h"

#include "model/classad/references.h"
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

}  // namespace

std::vector<std::string> significant_attributes(const NegotiatorPolicy& policy,
                                                const std::vector<classad::ClassAd>& slots, SlotMemo* memo) {
  std::vector<const classad::ExprTree*> exprs;
  for (const classad::ExprPtr* e : {&policy.pre_job_rank, &policy.post_job_rank,
                                    &policy.preemption_requirements, &policy.preemption_rank})
    if (*e) exprs.push_back(e->get());
  classad::NameSet names;
  if (memo == nullptr) {
    std::vector<const classad::ClassAd*> slot_ptrs;
    slot_ptrs.reserve(slots.size());
    for (const classad::ClassAd& s : slots) slot_ptrs.push_back(&s);
    names = schedd::SignificantAttributes::from_slots(slot_ptrs, exprs).names();
  } else {
    names = remembered_reads(slots, *memo);
    // The negotiator's expressions, read as from_slots() reads them: with
    // the first slot as MY.
    std::vector<const classad::ClassAd*> first;
    if (!slots.empty()) first.push_back(&slots.front());
    const classad::NameSet negotiator = schedd::SignificantAttributes::from_slots(first, exprs).names();
    names.insert(negotiator.begin(), negotiator.end());
  }
  // NEGOTIATOR_JOB_CONSTRAINT reads the job (its MY): an autocluster's
  // jobs are then all inside it or all outside.
  if (policy.job_constraint) {
    classad::References refs;
    classad::collect_references(*policy.job_constraint, nullptr, refs);
    names.insert(refs.external.begin(), refs.external.end());
  }
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace cara::negotiation
