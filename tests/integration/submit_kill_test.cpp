// Nothing acknowledged is lost (issue 21): an access point killed with
// kill -9 at random moments while 16 clients submit, restarted from its
// store each time, has every job it acknowledged exactly once, and cluster
// ids are never handed out twice. Real `cara master` processes on
// 127.0.0.1, ended by PID; every wait bounded. It loads the machine on
// purpose, so it runs alone (tests/CMakeLists.txt: SERIAL).
#include <signal.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <regex>
#include <sstream>
#include <thread>

#include "integration/pool_support.h"

namespace fs = std::filesystem;
using namespace cara::test;

namespace {

// What the submitting clients were told: cluster id → jobs, and any id
// told twice.
struct Acknowledged {
  std::mutex mutex;
  std::condition_variable more;
  std::map<long, long> clusters;
  std::vector<long> twice;
  long total = 0;

  void add(long cluster, long jobs) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!clusters.emplace(cluster, jobs).second) twice.push_back(cluster);
      ++total;
    }
    more.notify_all();
  }
  std::map<long, long> snapshot() {
    std::lock_guard<std::mutex> lock(mutex);
    return clusters;
  }
  // Waits until `n` more acknowledgements than `since` arrived.
  bool wait_for(long since, long n, std::chrono::seconds limit) {
    std::unique_lock<std::mutex> lock(mutex);
    return more.wait_for(lock, limit, [&] { return total >= since + n; });
  }
  long count() {
    std::lock_guard<std::mutex> lock(mutex);
    return total;
  }
};

// Every acknowledged cluster is in the queue with exactly its jobs.
void check_all_there(const std::map<long, long>& acknowledged,
                     const std::map<long, std::vector<long>>& queue) {
  for (const auto& [cluster, jobs] : acknowledged) {
    INFO("cluster " << cluster);
    auto it = queue.find(cluster);
    REQUIRE(it != queue.end());
    std::vector<long> expected;
    for (long p = 0; p < jobs; ++p) expected.push_back(p);
    std::vector<long> procs = it->second;
    std::sort(procs.begin(), procs.end());
    CHECK(procs == expected);
  }
}

}  // namespace

TEST_CASE("an access point killed with kill -9 while 16 clients submit keeps every acknowledged job once",
          "[integration][durability]") {
  Pool pool;
  const fs::path ap = pool.start_access_point();
  auto ap_answers = [&] { return queue_of(pool, ap).has_value(); };

  Acknowledged acked;
  std::atomic<bool> stop{false};
  const std::regex told(R"((\d+) job\(s\) submitted to cluster (\d+)\.)");
  std::vector<std::thread> clients;
  for (int c = 0; c < 16; ++c) {
    const fs::path sub = pool.dir / ("client" + std::to_string(c) + ".sub");
    std::ofstream(sub) << "executable = /bin/true\nqueue " << 1 + c % 4 << "\n";
    clients.emplace_back([&, sub] {
      while (!stop) {
        auto r = pool.tool(ap, {"submit", sub.string()});
        std::smatch m;
        // Only a submission the schedd acknowledged counts; one refused
        // or cut off by the kill may or may not be in the queue.
        if (r.exit_code == 0 && std::regex_search(r.out, m, told))
          acked.add(std::stol(m[2]), std::stol(m[1]));
      }
    });
  }

  std::mt19937 random(std::random_device{}());
  for (int kill = 0; kill < 10; ++kill) {
    // A random moment: after some more acknowledgements.
    REQUIRE(acked.wait_for(acked.count(), std::uniform_int_distribution<long>(1, 24)(random),
                           std::chrono::seconds(120)));
    Pool::stop(pool.nodes.back(), SIGKILL);
    pool.start(ap);
    REQUIRE(await(ap_answers, 60));
    const auto before = acked.snapshot();
    auto queue = queue_of(pool, ap);
    REQUIRE(queue);
    check_all_there(before, *queue);
  }
  stop = true;
  for (std::thread& t : clients) t.join();
  CHECK(acked.twice.empty());
  CHECK(acked.count() >= 10);

  // A clean stop and start gives the same queue.
  auto last = queue_of(pool, ap);
  REQUIRE(last);
  check_all_there(acked.snapshot(), *last);
  Pool::stop(pool.nodes.back());
  pool.start(ap);
  REQUIRE(await(ap_answers, 60));
  CHECK(queue_of(pool, ap) == last);
}
