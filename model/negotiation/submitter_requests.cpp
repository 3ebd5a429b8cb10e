#include "model/negotiation/submitter_requests.h"

#include <map>

#include "model/classad/eval.h"
#include "model/schedd/job_order.h"
#include "model/schedd/job_status.h"

namespace cara::negotiation {

std::vector<SubmitterRequests> submitter_requests(const std::vector<classad::ClassAd>& jobs,
                                                  schedd::SignificantAttributes significant) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const classad::ClassAd*>> idle;
  for (const classad::ClassAd& job : jobs) {
    std::int64_t status = 1;
    if (!classad::evaluate_attr(job, "JobStatus").number(status)) status = 1;
    if (status != 1) continue;
    const std::string who = schedd::submitter_name(job);
    auto [it, fresh] = idle.try_emplace(who);
    if (fresh) order.push_back(who);
    it->second.push_back(&job);
  }
  schedd::AutoclusterIndex index(std::move(significant));
  std::vector<SubmitterRequests> out;
  for (const std::string& who : order) {
    std::vector<const classad::ClassAd*>& list = idle[who];
    schedd::sort_for_offer(list);
    SubmitterRequests s;
    s.name = who;
    for (schedd::ResourceRequest& r : index.requests(list)) {
      Request request;
      request.job = r.job;
      request.count = r.count;
      request.job_ids = std::move(r.jobs);
      s.requests.push_back(std::move(request));
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace cara::negotiation
