// A central manager's collector and its CONDOR_VIEW_HOST collectors: the
// view collectors are reached (and reached again after a restart) by a
// DaemonWatch; this relay hands the ones reached to the local
// collector, now and after each restart of that collector, which forwards
// every update to them.
#pragma once

#include <mutex>
#include <vector>

#include "actors/interfaces.h"

namespace cara::apps {

class ViewHostLink {
 public:
  // The node's collector, now and after each restart: it is told the view
  // collectors reached so far.
  void attach(const actors::collector_actor& local);
  // The view collectors as the watch reaches them (null: not reached).
  void update(const std::vector<actors::collector_actor>& reached);

 private:
  void tell();  // under mutex_

  std::mutex mutex_;  // attach and update come from different threads
  actors::collector_actor local_;
  std::vector<actors::collector_actor> reached_;
};

}  // namespace cara::apps
