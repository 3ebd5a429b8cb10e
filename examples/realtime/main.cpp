// A pool of two machines in this program, in real time: caracara's own
// collector, negotiator, schedd and startds, running four real jobs. Each
// event is printed as it happens; then the jobs' output and the user's
// priority.
#include <caracara/pool.h>

#include <fstream>
#include <iostream>
#include <mutex>

int main() try {
  caracara::PoolSpec spec;
  spec.common.text = "UID_DOMAIN = example\nNEGOTIATOR_INTERVAL = 2\n";
  spec.machines = {{"ep1", {"NUM_CPUS = 2\n"}}, {"ep2", {"NUM_CPUS = 2\n"}}};
  caracara::PoolOptions options;
  options.procd = CARACARA_PROCD;
  caracara::Pool pool(spec, options);

  std::mutex out;
  pool.on_event([&](const caracara::Event& e) {
    if (e.kind == caracara::EventKind::Cycle || e.kind == caracara::EventKind::PriorityChanged) return;
    std::lock_guard<std::mutex> lock(out);
    std::cout << e.time << "  " << caracara::to_string(e.kind) << " " << e.job << " " << e.submitter << " "
              << e.slot << "\n";
  });
  pool.submit("alice",
              "executable = /bin/sh\n"
              "arguments = \"-c 'echo job $(Process) done'\"\n"
              "output = job.$(Process).out\n"
              "queue 4\n");
  if (!pool.wait_until_empty(120)) {
    std::cerr << "the jobs did not finish within two minutes\n";
    return 1;
  }
  for (int i = 0; i < 4; ++i) {
    std::ifstream job(pool.directory() + "/job." + std::to_string(i) + ".out");
    std::cout << "job " << i << " wrote: " << job.rdbuf();
  }
  for (const caracara::SubmitterPriority& p : pool.priorities())
    std::cout << p.name << ": priority " << p.effective_priority << "\n";
  return 0;
} catch (const caracara::Error& e) {
  std::cerr << "realtime: " << e.what() << "\n";
  return 1;
}
