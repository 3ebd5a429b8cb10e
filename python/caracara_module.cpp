// `import caracara`: the public virtual-time API (include/caracara/) for
// Python (issue 29), translation only — every decision is the library's.
//
//   import caracara
//   pool = caracara.VirtualPool(common="UID_DOMAIN = lab\n",
//                               machines=[(f"ep{i}", "NUM_CPUS = 1\n") for i in range(100)])
//   pool.submit("alice", "executable = /bin/true\n+SimulatedRunTime = 600\nqueue 500\n")
//   pool.advance(24 * 3600)
//   print([(p.name, p.real_priority) for p in pool.priorities()])
#include <caracara/virtual_pool.h>
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <exception>
#include <optional>
#include <sstream>

namespace py = pybind11;

namespace {

// A Python callback that raises must not unwind through the pool's engine
// mid-event: the first exception is kept, later events are not passed on,
// and the call that ran the events (advance, run_until, submit, ...)
// raises it once the pool is at rest.
struct Listeners {
  std::vector<py::function> callbacks;
  std::optional<py::error_already_set> failure;

  void tell(const caracara::Event& e) {
    if (failure) return;
    for (const py::function& f : callbacks) {
      try {
        f(e);
      } catch (py::error_already_set& err) {
        failure.emplace(std::move(err));
        return;
      }
    }
  }
  void rethrow() {
    if (!failure) return;
    py::error_already_set err = std::move(*failure);
    failure.reset();
    throw err;
  }
};

// The pool and its Python listeners, which live exactly as long.
struct PyPool {
  std::unique_ptr<caracara::VirtualPool> pool;
  std::shared_ptr<Listeners> listeners = std::make_shared<Listeners>();

  explicit PyPool(const caracara::PoolSpec& spec) : pool(std::make_unique<caracara::VirtualPool>(spec)) {
    pool->on_event([l = listeners](const caracara::Event& e) { l->tell(e); });
  }
  // Runs `step`, then raises what a callback raised meanwhile.
  template <class F>
  auto guarded(F&& step) {
    if constexpr (std::is_void_v<decltype(step())>) {
      step();
      listeners->rethrow();
    } else {
      auto out = step();
      listeners->rethrow();
      return out;
    }
  }
};

caracara::ConfigText config_of(const py::object& o, const char* what) {
  if (o.is_none()) return {};
  if (py::isinstance<py::str>(o)) return caracara::ConfigText{o.cast<std::string>(), what, 1};
  return o.cast<caracara::ConfigText>();
}

caracara::PoolSpec spec_of(const py::object& common, const py::object& central_manager,
                           const py::object& access_point, const py::iterable& machines, std::int64_t start,
                           std::uint64_t seed) {
  caracara::PoolSpec spec;
  spec.common = config_of(common, "common configuration");
  spec.central_manager = config_of(central_manager, "central manager configuration");
  spec.access_point = config_of(access_point, "access point configuration");
  for (py::handle m : machines) {
    if (py::isinstance<caracara::MachineSpec>(m)) {
      spec.machines.push_back(m.cast<caracara::MachineSpec>());
      continue;
    }
    auto pair = m.cast<py::tuple>();
    if (pair.size() != 2) throw py::value_error("a machine is (name, configuration) or a MachineSpec");
    const std::string name = pair[0].cast<std::string>();
    spec.machines.push_back({name, config_of(pair[1], ("configuration of " + name).c_str())});
  }
  spec.start = start;
  spec.seed = seed;
  return spec;
}

std::string event_repr(const caracara::Event& e) {
  std::ostringstream out;
  out << "<Event " << caracara::to_string(e.kind) << " t=" << e.time;
  if (!e.job.empty()) out << " job=" << e.job;
  if (!e.submitter.empty()) out << " submitter=" << e.submitter;
  if (!e.slot.empty()) out << " slot=" << e.slot;
  if (e.value != 0) out << " value=" << e.value;
  if (!e.detail.empty()) out << " detail='" << e.detail << "'";
  return out.str() + ">";
}

}  // namespace

PYBIND11_MODULE(caracara, m) {
  m.doc() =
      "caracara's scheduler in virtual time: the real negotiator, accountant, schedd and startd models "
      "of a caracara pool, stepped event by event on a virtual clock.";
  py::register_exception<caracara::Error>(m, "Error", PyExc_RuntimeError);

  py::class_<caracara::ConfigText>(m, "ConfigText",
                                   "Configuration text, with the file and first line its errors name.")
      .def(py::init([](std::string text, std::string file, int first_line) {
             return caracara::ConfigText{std::move(text), std::move(file), first_line};
           }),
           py::arg("text"), py::arg("file") = "<text>", py::arg("first_line") = 1)
      .def_readwrite("text", &caracara::ConfigText::text)
      .def_readwrite("file", &caracara::ConfigText::file)
      .def_readwrite("first_line", &caracara::ConfigText::first_line);

  py::class_<caracara::MachineSpec>(m, "MachineSpec",
                                    "A machine: its host name and its startd configuration.")
      .def(py::init([](std::string name, const py::object& config) {
             return caracara::MachineSpec{name, config_of(config, ("configuration of " + name).c_str())};
           }),
           py::arg("name"), py::arg("config") = py::none())
      .def_readwrite("name", &caracara::MachineSpec::name)
      .def_readwrite("config", &caracara::MachineSpec::config);

  py::enum_<caracara::EventKind>(m, "EventKind")
      .value("Submitted", caracara::EventKind::Submitted)
      .value("Matched", caracara::EventKind::Matched)
      .value("Claimed", caracara::EventKind::Claimed)
      .value("Started", caracara::EventKind::Started)
      .value("Finished", caracara::EventKind::Finished)
      .value("Killed", caracara::EventKind::Killed)
      .value("Removed", caracara::EventKind::Removed)
      .value("Cycle", caracara::EventKind::Cycle)
      .value("PriorityChanged", caracara::EventKind::PriorityChanged)
      .value("QuotaChanged", caracara::EventKind::QuotaChanged);

  py::enum_<caracara::Node>(m, "Node")
      .value("CentralManager", caracara::Node::CentralManager)
      .value("AccessPoint", caracara::Node::AccessPoint)
      .value("Machines", caracara::Node::Machines);

  py::class_<caracara::Event>(m, "Event", "Something that happened in the pool, at a virtual time.")
      .def_readonly("kind", &caracara::Event::kind)
      .def_readonly("time", &caracara::Event::time)
      .def_readonly("job", &caracara::Event::job)
      .def_readonly("submitter", &caracara::Event::submitter)
      .def_readonly("slot", &caracara::Event::slot)
      .def_readonly("value", &caracara::Event::value)
      .def_readonly("detail", &caracara::Event::detail)
      .def("__repr__", &event_repr);

  py::class_<caracara::SubmitterPriority>(m, "SubmitterPriority")
      .def_readonly("name", &caracara::SubmitterPriority::name)
      .def_readonly("group", &caracara::SubmitterPriority::group)
      .def_readonly("real_priority", &caracara::SubmitterPriority::real_priority)
      .def_readonly("effective_priority", &caracara::SubmitterPriority::effective_priority)
      .def_readonly("factor", &caracara::SubmitterPriority::factor)
      .def_readonly("resources_used", &caracara::SubmitterPriority::resources_used)
      .def_readonly("accumulated_usage", &caracara::SubmitterPriority::accumulated_usage)
      .def("__repr__", [](const caracara::SubmitterPriority& p) {
        std::ostringstream out;
        out << "<SubmitterPriority " << p.name << " real=" << p.real_priority
            << " effective=" << p.effective_priority << " factor=" << p.factor << " used=" << p.resources_used
            << ">";
        return out.str();
      });

  py::class_<caracara::GroupQuota>(m, "GroupQuota")
      .def_readonly("name", &caracara::GroupQuota::name)
      .def_readonly("configured_quota", &caracara::GroupQuota::configured_quota)
      .def_readonly("effective_quota", &caracara::GroupQuota::effective_quota)
      .def_readonly("allocated", &caracara::GroupQuota::allocated)
      .def_readonly("requested", &caracara::GroupQuota::requested)
      .def_readonly("usage", &caracara::GroupQuota::usage)
      .def("__repr__", [](const caracara::GroupQuota& g) {
        std::ostringstream out;
        out << "<GroupQuota " << g.name << " configured=" << g.configured_quota
            << " effective=" << g.effective_quota << " usage=" << g.usage << ">";
        return out.str();
      });

  py::class_<caracara::JobCounts>(m, "JobCounts")
      .def_readonly("idle", &caracara::JobCounts::idle)
      .def_readonly("running", &caracara::JobCounts::running)
      .def_readonly("held", &caracara::JobCounts::held)
      .def("__repr__", [](const caracara::JobCounts& c) {
        return "<JobCounts idle=" + std::to_string(c.idle) + " running=" + std::to_string(c.running) +
               " held=" + std::to_string(c.held) + ">";
      });

  py::class_<PyPool>(m, "VirtualPool",
                     "A whole caracara pool on a virtual clock. Configuration and submit descriptions are "
                     "HTCondor's languages; a job runs for its SimulatedRunTime seconds.")
      .def(py::init([](const py::object& common, const py::object& central_manager,
                       const py::object& access_point, const py::iterable& machines, std::int64_t start,
                       std::uint64_t seed) {
             return std::make_unique<PyPool>(
                 spec_of(common, central_manager, access_point, machines, start, seed));
           }),
           py::kw_only(), py::arg("common") = py::none(), py::arg("central_manager") = py::none(),
           py::arg("access_point") = py::none(), py::arg("machines"), py::arg("start") = 1704067200,
           py::arg("seed") = 1)
      .def_property_readonly("now", [](const PyPool& p) { return p.pool->now(); })
      .def(
          "run_until", [](PyPool& p, std::int64_t t) { p.guarded([&] { p.pool->run_until(t); }); },
          py::arg("time"), "Runs every event up to and including `time`.")
      .def(
          "advance", [](PyPool& p, std::int64_t s) { p.guarded([&] { p.pool->advance(s); }); },
          py::arg("seconds"), "Runs the pool `seconds` further.")
      .def(
          "next_event", [](const PyPool& p) { return p.pool->next_event(); },
          "The virtual time of the next event, or None.")
      .def(
          "submit",
          [](PyPool& p, const std::string& owner, const std::string& description) {
            return p.guarded([&] { return p.pool->submit(owner, description); });
          },
          py::arg("owner"), py::arg("description"), "condor_submit as `owner`; the job ids.")
      .def(
          "submit_ad",
          [](PyPool& p, const std::string& owner, const std::string& ad, std::int64_t count) {
            return p.guarded([&] { return p.pool->submit_ad(owner, ad, count); });
          },
          py::arg("owner"), py::arg("job_ad"), py::arg("count") = 1,
          "`count` jobs of a job ClassAd (Cmd names the program); the job ids.")
      .def(
          "remove",
          [](PyPool& p, const std::string& constraint) {
            return p.guarded([&] { return p.pool->remove(constraint); });
          },
          py::arg("constraint"), "condor_rm of the jobs a ClassAd constraint selects; how many.")
      .def(
          "userprio",
          [](PyPool& p, const std::string& command, const std::string& name, double value) {
            p.guarded([&] { p.pool->userprio(command, name, value); });
          },
          py::arg("command"), py::arg("name"), py::arg("value") = 0.0,
          "condor_userprio: setfactor, setprio, setaccum, setfloor, setceil, resetusage, delete, ...")
      .def(
          "reconfigure",
          [](PyPool& p, caracara::Node node, const py::object& config, const std::string& prefix) {
            p.guarded([&] { p.pool->reconfigure(node, config_of(config, "reconfiguration"), prefix); });
          },
          py::arg("node"), py::arg("config"), py::arg("machine_prefix") = "",
          "condor_reconfig of a node with `config` added to its configuration.")
      .def(
          "add_machine",
          [](PyPool& p, const std::string& name, const py::object& config) {
            p.guarded([&] {
              p.pool->add_machine({name, config_of(config, ("configuration of " + name).c_str())});
            });
          },
          py::arg("name"), py::arg("config") = py::none(), "A machine joins the pool now.")
      .def(
          "remove_machine",
          [](PyPool& p, const std::string& name) { p.guarded([&] { p.pool->remove_machine(name); }); },
          py::arg("name"), "The machine leaves the pool now; its jobs are killed and requeued.")
      .def(
          "end_job",
          [](PyPool& p, const std::string& job, bool killed) {
            p.guarded([&] { p.pool->end_job(job, killed); });
          },
          py::arg("job"), py::arg("killed") = false,
          "The job's run ends now (for jobs without SimulatedRunTime, which run until told).")
      .def(
          "on_event",
          [](PyPool& p, py::function callback) { p.listeners->callbacks.push_back(std::move(callback)); },
          py::arg("callback"), "Calls callback(event) for every event, in order.")
      .def("priorities", [](const PyPool& p) { return p.pool->priorities(); })
      .def("group_quotas", [](const PyPool& p) { return p.pool->group_quotas(); })
      .def("jobs", [](const PyPool& p) { return p.pool->jobs(); })
      .def_property_readonly("cores", [](const PyPool& p) { return p.pool->cores(); });
}
