// CAF 0.17.6 (core + io + openssl): a typed actor answers a request, with
// the 2-core scheduler settings of STACK-NOTES.md.
#include <caf/all.hpp>
#include <caf/io/all.hpp>
#include <caf/openssl/all.hpp>
#include <catch2/catch.hpp>

namespace {
using adder = caf::typed_actor<caf::replies_to<int, int>::with<int>>;

// Spawned with an argument on purpose: CAF 0.17.6's init_fun_factory binds
// a reference through a null shared_ptr<tuple<>> when a function actor takes
// no arguments, which UBSan reports (harmless in practice, but it would
// fail the sanitizer build).
adder::behavior_type adder_impl(int base) {
  return {[base](int a, int b) { return base + a + b; }};
}
}  // namespace

TEST_CASE("caf typed actor request/response", "[deps]") {
  caf::actor_system_config cfg;
  cfg.set("scheduler.policy", caf::atom("sharing"));
  cfg.load<caf::io::middleman>();
  cfg.load<caf::openssl::manager>();
  caf::actor_system sys{cfg};
  auto a = sys.spawn(adder_impl, 0);
  caf::scoped_actor self{sys};
  int result = 0;
  self->request(a, std::chrono::seconds(10), 40, 2).receive([&](int r) { result = r; },
                                                            [&](caf::error&) { result = -1; });
  CHECK(result == 42);
  self->send_exit(a, caf::exit_reason::user_shutdown);
}
