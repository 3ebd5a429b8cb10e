// Nothing acknowledged is lost (issue 21): an access point killed with
// kill -9 at random moments while 16 clients submit, restarted from its
// store each time, has every job it acknowledged exactly once, and cluster
// ids are never handed out twice. Real `cara master` processes on
// 127.0.0.1, ended by PID; every wait bounded. It loads the machine on
// purpose, so it runs alone (tests/CMakeLists.txt: SERIAL).
#include <signal.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "integration/pool_support.h"
#include "integration/submit_clients.h"

namespace fs = std::filesystem;
using namespace cara::test;

namespace {

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
  std::vector<fs::path> files;
  for (int c = 0; c < 16; ++c) {
    files.push_back(pool.dir / ("client" + std::to_string(c) + ".sub"));
    std::ofstream(files.back()) << "executable = /bin/true\nqueue " << 1 + c % 4 << "\n";
  }
  SubmitClients clients(pool, ap, files, acked);

  std::mt19937 random(std::random_device{}());
  for (int kill = 0; kill < 10; ++kill) {
    // A random moment: after some more acknowledgements.
    REQUIRE(acked.wait_for(acked.submissions(), std::uniform_int_distribution<long>(1, 24)(random),
                           std::chrono::seconds(120)));
    Pool::stop(pool.nodes.back(), SIGKILL);
    pool.start(ap);
    REQUIRE(await(ap_answers, 60));
    clients.resume();
    const auto before = acked.snapshot();
    auto queue = queue_of(pool, ap);
    REQUIRE(queue);
    check_all_there(before, *queue);
  }
  clients.stop();
  CHECK(acked.twice().empty());
  CHECK(acked.submissions() >= 10);

  // A clean stop and start gives the same queue.
  auto last = queue_of(pool, ap);
  REQUIRE(last);
  check_all_there(acked.snapshot(), *last);
  Pool::stop(pool.nodes.back());
  pool.start(ap);
  REQUIRE(await(ap_answers, 60));
  CHECK(queue_of(pool, ap) == last);
}
