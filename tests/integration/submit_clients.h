// Users submitting over and over to an access point that the kill tests
// kill and restart (issue 21): one thread a client, each running
// `cara submit` with its own submit file in a loop.
//
// A client whose submission fails (the access point is down or starting)
// waits until the test says the access point answers again, as a user's
// script that checks `cara q` before it retries would. Retrying at once
// instead spawns sanitized processes as fast as two cores allow while the
// access point restarts: on the CI machine that starved the restarting
// node so that it did not answer within a minute (load average 18).
//
// The clients stop and are joined when this goes, also when a REQUIRE
// throws (a joinable thread would abort the test run).
#pragma once

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "integration/pool_support.h"

namespace cara::test {

// What the submitting clients were told: cluster id → its number of jobs,
// and any cluster id told twice.
class Acknowledged {
 public:
  void add(long cluster, long jobs) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!clusters_.emplace(cluster, jobs).second) twice_.push_back(cluster);
      ++submissions_;
      jobs_ += jobs;
    }
    more_.notify_all();
  }
  std::map<long, long> snapshot() {
    std::lock_guard<std::mutex> lock(mutex_);
    return clusters_;
  }
  std::vector<long> twice() {
    std::lock_guard<std::mutex> lock(mutex_);
    return twice_;
  }
  long submissions() {
    std::lock_guard<std::mutex> lock(mutex_);
    return submissions_;
  }
  // Waits until `n` more submissions than `since` were acknowledged.
  bool wait_for(long since, long n, std::chrono::seconds limit) {
    std::unique_lock<std::mutex> lock(mutex_);
    return more_.wait_for(lock, limit, [&] { return submissions_ >= since + n; });
  }
  // Waits until at least `n` jobs were acknowledged.
  bool wait_for_jobs(long n, std::chrono::seconds limit) {
    std::unique_lock<std::mutex> lock(mutex_);
    return more_.wait_for(lock, limit, [&] { return jobs_ >= n; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable more_;
  std::map<long, long> clusters_;
  std::vector<long> twice_;
  long submissions_ = 0, jobs_ = 0;
};

class SubmitClients {
 public:
  // Starts a client for each of `files`, telling `acked` what the access
  // point acknowledged, until stop().
  SubmitClients(Pool& pool, std::filesystem::path ap, const std::vector<std::filesystem::path>& files,
                Acknowledged& acked)
      : pool_(pool), ap_(std::move(ap)), acked_(acked) {
    for (const auto& file : files) threads_.emplace_back([this, file] { run(file); });
  }
  SubmitClients(const SubmitClients&) = delete;
  SubmitClients& operator=(const SubmitClients&) = delete;
  ~SubmitClients() { stop(); }

  // The access point answers again: the clients that failed go on.
  void resume() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++restarts_;
    }
    changed_.notify_all();
  }

  // Ends every client after its current submission, and waits for them.
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    for (std::thread& t : threads_)
      if (t.joinable()) t.join();
  }

 private:
  void run(const std::filesystem::path& file) {
    static const std::regex told(R"((\d+) job\(s\) submitted to cluster (\d+)\.)");
    for (;;) {
      long seen = 0;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stopping_) return;
        seen = restarts_;  // before the attempt: a restart during it counts
      }
      auto r = pool_.tool(ap_, {"submit", file.string()});
      std::smatch m;
      // Only a submission the schedd acknowledged counts; one refused or
      // cut off by the kill may or may not be in the queue.
      if (r.exit_code == 0 && std::regex_search(r.out, m, told)) {
        acked_.add(std::stol(m[2]), std::stol(m[1]));
        continue;
      }
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || restarts_ != seen; });
    }
  }

  Pool& pool_;
  const std::filesystem::path ap_;
  Acknowledged& acked_;
  std::mutex mutex_;
  std::condition_variable changed_;
  long restarts_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;  // last: started once the rest is set
};

}  // namespace cara::test
