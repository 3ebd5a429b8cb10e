// docker/ (issue 25): compose.yaml checked by compose's own parser and
// against the Dockerfile, the configuration files' contract, and the same
// topology run without Docker by docker/local-cluster — on 127.0.0.1
// (submit, fail over, add an execution point, the mini image) and with a
// host per node in network namespaces (cut the central managers' link).
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "integration/net_lab.h"
#include "integration/pool_support.h"
#include "tests/support/http_client.h"

using namespace cara::test;
using nlohmann::json;

namespace {

const std::string kDocker = CARA_SOURCE_DIR "/docker";
const std::string kLocalCluster = kDocker + "/local-cluster";

std::string joined(const json& list) {
  std::string out;
  for (const auto& a : list) out += (out.empty() ? "" : " ") + a.get<std::string>();
  return out;
}

// A YAML document as JSON, by Debian's python3-yaml (what local-cluster reads it with too).
json yaml_to_json(const std::string& yaml) {
  auto r = run_process(
      {"/usr/bin/python3", "-c", "import sys, json, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)"},
      yaml);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

// `docker-compose config`: the compose file as compose itself reads it.
ProcessResult compose_config(const std::string& file) {
  return run_process({"/usr/bin/docker-compose", "--project-directory", kDocker, "-f", file, "config"}, "",
                     60000);
}

// Each stage of the Dockerfile: its CMD (inherited from the stage it is FROM).
std::map<std::string, std::string> dockerfile_commands() {
  std::ifstream in(kDocker + "/Dockerfile");
  std::map<std::string, std::string> cmd;
  std::string stage, line;
  std::map<std::string, std::string> base;
  while (std::getline(in, line)) {
    if (line.rfind("FROM ", 0) == 0) {
      std::istringstream words(line.substr(5));
      std::string from, as, name;
      words >> from >> as >> name;
      stage = name;
      if (cmd.count(from)) cmd[stage] = cmd[from];
    } else if (line.rfind("CMD ", 0) == 0) {
      cmd[stage] = joined(json::parse(line.substr(4)));
    }
  }
  return cmd;
}

// A cluster of docker/local-cluster in a directory of its own; stopped
// (and anything left killed by PID) when it goes.
struct LocalCluster {
  cara::scratch::TempDir scratch{"local-cluster"};
  fs::path dir = scratch.path;
  fs::path jobs;  // where the last submission's jobs write

  LocalCluster() {
    watched_dirs().push_back(dir);
    // The tools run as nobody (the schedd refuses root), who must reach the
    // cluster's files; its jobs write into the jobs volume.
    REQUIRE(::chmod(dir.c_str(), 0755) == 0);
  }
  ~LocalCluster() {
    run_process({kLocalCluster, "--dir", dir.string(), "down", "--timeout", "30"}, "", 60000);
    for (const auto& node : nodes())
      if (node.value("pid", json()).is_number()) ::kill(node["pid"].get<int>(), SIGKILL);
    auto& w = watched_dirs();
    w.erase(std::remove(w.begin(), w.end(), dir), w.end());
  }

  ProcessResult run(std::vector<std::string> args, int timeout_ms = 60000) {
    args.insert(args.begin(), {kLocalCluster, "--dir", dir.string()});
    return run_process(args, "", timeout_ms);
  }
  void up(std::vector<std::string> args) {
    args.insert(args.begin(), {"up", "--cara", CARA_BINARY});
    auto r = run(args, 600000);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
  }
  json state() {
    std::ifstream in(dir / "cluster.json");
    return in ? json::parse(in) : json::object();
  }
  json nodes() { return state().value("nodes", json::object()); }
  // Whether `node`'s process lives: not gone, and not a zombie that its
  // adoptive parent has yet to reap.
  bool running(const std::string& node) {
    const json n = nodes().value(node, json::object());
    if (!n.value("pid", json()).is_number()) return false;
    const std::string stat = read("/proc/" + std::to_string(n["pid"].get<int>()) + "/stat");
    const auto paren = stat.rfind(')');
    return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z';
  }
  // `cara ARGS` in `node`'s environment (docker compose exec), as `user`.
  ProcessResult cara(const std::string& node, std::vector<std::string> args,
                     const std::string& user = "root") {
    std::vector<std::string> argv{kLocalCluster, "--dir", dir.string(), "exec", node, "--", "cara"};
    if (user != "root")
      argv.insert(argv.begin(), {"/usr/bin/setpriv", "--reuid=" + user, "--regid=nogroup", "--init-groups"});
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, "", 60000);
  }
  // Where `node`'s commands run (its WORKDIR, /srv/jobs: the jobs volume
  // on the access point), writable by nobody.
  fs::path workdir(const std::string& node) {
    const fs::path d = fs::canonical(nodes()[node]["cwd"].get<std::string>());
    REQUIRE(::chown(d.c_str(), 65534, 65534) == 0);
    return d;
  }
  // `count` jobs submitted at `node` as nobody, each writing its sandbox's
  // path (which names the execution point) to out.NAME.N.
  void submit(const std::string& node, const std::string& name, int count, const std::string& extra = "") {
    jobs = workdir(node);
    std::ofstream(jobs / (name + ".sub"))
        << "executable = /bin/sh\narguments = \"-c 'echo $_CONDOR_SCRATCH_DIR'\"\noutput = out." << name
        << ".$(Process)\nerror = err." << name << ".$(Process)\n"
        << extra << "queue " << count << "\n";
    auto r = cara(node, {"submit", name + ".sub"}, "nobody");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
  }
  // The outputs of job set `name` once all `count` are written: each the
  // execution point that ran it.
  std::vector<std::string> ran_on(const std::string& name, int count) {
    std::vector<std::string> where;
    for (int i = 0; i < count; ++i) {
      const std::string out = read(jobs / ("out." + name + "." + std::to_string(i)));
      const auto at = out.find("/nodes/");
      if (at == std::string::npos) return {};
      where.push_back(out.substr(at + 7, out.find('/', at + 7) - at - 7));
    }
    return where;
  }
  bool queue_empty(const std::string& node) {
    auto q = cara(node, {"q", "-allusers", "-af", "ClusterId"}, "nobody");
    return q.exit_code == 0 && q.out.empty();
  }
  // The negotiators `cm`'s collector shows as "NAME ACTIVE TERM" lines.
  std::string negotiators(const std::string& cm, const std::string& pool) {
    auto r = cara(cm, {"status", "-pool", pool, "-negotiator", "-af", "Name", "HadActive", "HadTerm"});
    return r.exit_code == 0 ? r.out : "";
  }
  std::string pool_of(const std::string& node) {
    const json n = nodes()[node];
    return n["address"].get<std::string>() + ":" + std::to_string(n["port"].get<int>());
  }
};

}  // namespace

TEST_CASE("compose.yaml passes docker-compose config, and a broken one does not", "[docker]") {
  auto r = compose_config(kDocker + "/compose.yaml");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);

  // The validation is real: compose refuses a dependency on no service.
  cara::scratch::TempDir scratch("compose");
  std::string text = read(kDocker + "/compose.yaml");
  const std::string anchor = "    keygen:\n      condition: service_completed_successfully";
  REQUIRE(text.find(anchor) != std::string::npos);
  text.replace(text.find(anchor), anchor.size(), "    no-such-service:\n      condition: service_started");
  std::ofstream(scratch / "compose.yaml") << text;
  auto broken = compose_config(scratch / "compose.yaml");
  CHECK(broken.exit_code != 0);
  CHECK_THAT(broken.out + broken.err, Catch::Contains("no-such-service"));
}

TEST_CASE("compose.yaml: the pool's services, and the same command lines as the local cluster", "[docker]") {
  auto config = compose_config(kDocker + "/compose.yaml");
  REQUIRE(config.exit_code == 0);
  const json compose = yaml_to_json(config.out);
  const json services = compose["services"];
  std::set<std::string> names;
  for (const auto& [name, s] : services.items()) names.insert(name);
  CHECK(names == std::set<std::string>{"keygen", "cm1", "cm2", "ap", "ep", "ep-thesis", "mini", "prometheus",
                                       "grafana"});

  // Two central managers that know each other, an access point, three
  // execution points (two replicas and the thesis's worker node).
  for (const std::string cm : {"cm1", "cm2"}) {
    CHECK(services[cm]["build"]["target"] == "cm");
    CHECK(services[cm]["environment"]["CONDOR_HOST"] == "cm1:9618, cm2:9618");
    CHECK(services[cm]["hostname"] == cm);
  }
  CHECK(services["ap"]["build"]["target"] == "submit");
  CHECK(services["ep"]["build"]["target"] == "execute");
  CHECK(services["ep"]["deploy"]["replicas"] == 2);
  CHECK_FALSE(services["ep"].contains("hostname"));  // --scale: each replica names itself
  CHECK(services["ep-thesis"]["build"]["target"] == "execute");
  CHECK_THAT(services["ep-thesis"]["volumes"].dump(),
             Catch::Contains("thesis-worker.conf:/etc/caracara/config.d/50-thesis-worker.conf"));
  CHECK(services["mini"]["profiles"] == json::array({"mini"}));

  // Named volumes hold the RocksDB state; the CA's key only the keygen sees.
  for (const std::string node : {"cm1", "cm2", "ap"})
    CHECK_THAT(services[node]["volumes"].dump(), Catch::Contains(node + "-state:/var/lib/caracara"));
  for (const auto& [name, s] : services.items()) {
    const std::string volumes = s.value("volumes", json::array()).dump();
    CHECK((volumes.find("\"ca:/etc/caracara/ca") != std::string::npos) == (name == "keygen"));
  }
  CHECK(joined(services["keygen"]["command"]) == "cara keygen pool");
  for (const std::string node : {"cm1", "cm2", "ap", "ep", "ep-thesis"}) {
    CHECK(services[node]["depends_on"]["keygen"]["condition"] == "service_completed_successfully");
    CHECK(services[node]["init"] == true);
  }

  // Every caracara service runs its image's own command (the Dockerfile's
  // CMD for its target), and docker/local-cluster runs exactly that.
  const auto cmd = dockerfile_commands();
  auto plan = run_process({kLocalCluster, "plan", "--profile", "mini"});
  INFO(plan.err);
  REQUIRE(plan.exit_code == 0);
  std::map<std::string, std::string> local;
  for (const auto& node : json::parse(plan.out)) local[node["service"]] = joined(node["command"]);
  CHECK(local.size() == 7);  // all but Prometheus and Grafana, which are not caracara's images
  for (const auto& [name, s] : services.items()) {
    if (!s.contains("build")) continue;
    INFO(name);
    const std::string target = s["build"]["target"];
    REQUIRE(cmd.count(target) == 1);
    CHECK(local[name] == joined(s["command"]));
    if (name != "keygen") CHECK(joined(s["command"]) == cmd.at(target));
  }

  // Prometheus scrapes both central managers' web endpoints; Grafana reads
  // Prometheus and shows the shipped dashboard.
  const json prometheus = yaml_to_json(read(kDocker + "/prometheus/prometheus.yml"));
  CHECK(prometheus["scrape_configs"][0]["static_configs"][0]["targets"] ==
        json::array({"cm1:9680", "cm2:9680"}));
  const json source = yaml_to_json(read(kDocker + "/grafana/provisioning/datasources/prometheus.yaml"));
  CHECK(source["datasources"][0]["url"] == "http://prometheus:9090");
  CHECK_THAT(services["grafana"]["volumes"].dump(),
             Catch::Contains("caracara-dashboard.json:/var/lib/grafana/dashboards/caracara-dashboard.json"));
  const json provider = yaml_to_json(read(kDocker + "/grafana/provisioning/dashboards/caracara.yaml"));
  CHECK(provider["providers"][0]["options"]["path"] == "/var/lib/grafana/dashboards");
}

TEST_CASE("the containers' configuration: the role and the machine from the environment", "[docker]") {
  const std::string conf = kDocker + "/config/cara_config";
  auto val = [&](std::vector<std::string> env, std::vector<std::string> knobs) {
    std::vector<std::string> argv{"/usr/bin/env", "-i", "PATH=/usr/bin:/bin"};
    argv.insert(argv.end(), env.begin(), env.end());
    argv.insert(argv.end(), {CARA_BINARY, "config-val", "--config", conf});
    argv.insert(argv.end(), knobs.begin(), knobs.end());
    return run_process(argv);
  };
  auto cm = val({"CARA_ROLE=cm", "CONDOR_HOST=cm1:9618, cm2:9618"}, {"DAEMON_LIST", "HAD_LIST", "WEB_PORT"});
  INFO(cm.err);
  CHECK(cm.out == "MASTER COLLECTOR NEGOTIATOR HAD\ncm1:9618, cm2:9618\n9680\n");
  auto ep = val({"CARA_ROLE=execute", "CONDOR_HOST=cm1", "NUM_CPUS=3", "MEMORY=2048", "RESERVED_DISK=10"},
                {"DAEMON_LIST", "NUM_CPUS", "MEMORY", "RESERVED_DISK"});
  CHECK(ep.out == "MASTER STARTD\n3\n2048\n10\n");
  CHECK(val({"CARA_ROLE=submit", "CONDOR_HOST=cm1"}, {"DAEMON_LIST"}).out == "MASTER SCHEDD\n");
  CHECK(val({"CARA_ROLE=mini"}, {"DAEMON_LIST", "CONDOR_HOST"}).out ==
        "MASTER COLLECTOR NEGOTIATOR SCHEDD STARTD\n127.0.0.1:9618\n");
  // Paths follow the image's variables; the secrets are the node's certificate.
  CHECK(val({"CARA_ROLE=submit", "CONDOR_HOST=cm1", "CARA_SECRETS=/s", "CARA_STATE=/st"},
            {"AUTH_SSL_SERVER_CERTFILE", "AUTH_SSL_CLIENT_KEYFILE", "SPOOL"})
            .out == "/s/node.pem\n/s/node.key\n/st/spool\n");

  // Mistakes name the variable and what was expected.
  auto no_host = val({"CARA_ROLE=execute"}, {"DAEMON_LIST"});
  CHECK(no_host.exit_code != 0);
  CHECK_THAT(no_host.err, Catch::Contains("execute.conf") && Catch::Contains("CONDOR_HOST is not set"));
  auto no_role = val({}, {"DAEMON_LIST"});
  CHECK(no_role.exit_code != 0);
  CHECK_THAT(no_role.err, Catch::Contains("CARA_ROLE is not set"));
  auto bad_role = val({"CARA_ROLE=worker"}, {"DAEMON_LIST"});
  CHECK(bad_role.exit_code != 0);
  CHECK_THAT(bad_role.err, Catch::Contains("CARA_ROLE = worker: expected mini, cm, submit or execute"));

  // Mounted *.conf files come last, in name order; other files are not read.
  cara::scratch::TempDir extra("config-d");
  std::ofstream(extra / "10-more.conf") << "NUM_CPUS = 7\n";
  std::ofstream(extra / "20-backup.conf~") << "NUM_CPUS = 9\n";
  std::ofstream(extra / "README") << "not configuration\n";
  CHECK(val({"CARA_ROLE=execute", "CONDOR_HOST=cm1", "NUM_CPUS=3", "CARA_CONFIG_DIR=" + extra.path.string()},
            {"NUM_CPUS"})
            .out == "7\n");
}

TEST_CASE("the compose topology without Docker: submit, fail over, add an execution point",
          "[docker][local]") {
  LocalCluster c;
  c.up({});
  for (const std::string node : {"cm1", "cm2", "ap", "ep-1", "ep-2", "ep-thesis"}) CHECK(c.running(node));
  CHECK(c.nodes()["keygen"]["exit_code"] == 0);
  CHECK(fs::exists(c.dir / "volumes/secrets/node.pem"));
  CHECK_FALSE(fs::exists(c.dir / "volumes/secrets/ca.key"));

  // The execution points as configured: NUM_CPUS and MEMORY from the
  // environment, the thesis's 24+1 layout from its mounted file.
  REQUIRE(await([&] { return count(c.cara("cm1", {"status", "-af", "Name"}).out, "@") == 4; }, 60));
  const std::string slots = c.cara("cm1", {"status", "-af", "Name", "Cpus", "Memory"}).out;
  CHECK_THAT(slots, Catch::Contains("slot1@ep-1 4 8192\n") && Catch::Contains("slot1@ep-2 4 8192\n") &&
                        Catch::Contains("slot1@ep-thesis 24 92160\n") &&
                        Catch::Contains("slot2@ep-thesis 1 3840\n"));

  // The central manager's web endpoint, on the port the cluster gave it.
  const int web = c.nodes()["cm1"]["web_port"];
  REQUIRE(await([&] { return http_get(web, "/metrics").has_value(); }, 60));
  CHECK_THAT(http_get(web, "/metrics")->body, Catch::Contains("caracara_ha_active"));

  // Jobs submitted in the access point's container run on the execution
  // points, their output in the shared jobs volume.
  c.submit("ap", "first", 8);
  REQUIRE(await([&] { return c.ran_on("first", 8).size() == 8 && c.queue_empty("ap"); }, 120));
  const auto first = c.ran_on("first", 8);
  for (const std::string& ep : first) CHECK((ep == "ep-1" || ep == "ep-2" || ep == "ep-thesis"));

  // The active central manager killed: the other takes over and matches.
  REQUIRE(await([&] { return c.negotiators("cm2", c.pool_of("cm2")).find("cm1 true") != std::string::npos; },
                60));
  REQUIRE(c.run({"kill", "cm1"}).exit_code == 0);
  CHECK_FALSE(c.running("cm1"));
  REQUIRE(await([&] { return c.negotiators("cm2", c.pool_of("cm2")).find("cm2 true") != std::string::npos; },
                60));
  c.submit("ap", "after", 3);
  REQUIRE(await([&] { return c.ran_on("after", 3).size() == 3 && c.queue_empty("ap"); }, 120));

  // One more execution point (docker compose up --scale ep=3): it joins
  // and runs jobs meant for it.
  auto added = c.run({"add", "ep"}, 300000);
  INFO(added.out << added.err);
  REQUIRE(added.exit_code == 0);
  CHECK(c.running("ep-3"));
  REQUIRE(await(
      [&] {
        return c.cara("cm2", {"status", "-af", "Name"}, "root").out.find("slot1@ep-3") != std::string::npos;
      },
      60));
  c.submit("ap", "third", 2, "requirements = Machine == \"ep-3\"\n");
  REQUIRE(await([&] { return c.ran_on("third", 2).size() == 2 && c.queue_empty("ap"); }, 120));
  CHECK(c.ran_on("third", 2) == std::vector<std::string>{"ep-3", "ep-3"});

  // The stopped central manager starts again from its state, as a standby.
  REQUIRE(c.run({"start", "cm1"}, 300000).exit_code == 0);
  CHECK(c.running("cm1"));

  auto down = c.run({"down"}, 120000);
  INFO(down.out << down.err);
  REQUIRE(down.exit_code == 0);
  const json after = c.nodes();
  for (const auto& [name, node] : after.items()) CHECK_FALSE(c.running(name));
}

TEST_CASE("the mini image's pool without Docker: one node runs a job", "[docker][local]") {
  LocalCluster c;
  c.up({"--profile", "mini", "mini"});
  CHECK(c.nodes().size() == 1);
  CHECK(c.running("mini"));
  CHECK(fs::exists(c.dir / "volumes/mini-state/secrets/node.pem"));  // its own CA, made at its first start
  c.submit("mini", "mini", 2);
  REQUIRE(await([&] { return c.ran_on("mini", 2).size() == 2 && c.queue_empty("mini"); }, 120));
  CHECK(c.ran_on("mini", 2) == std::vector<std::string>{"mini", "mini"});
}

TEST_CASE("the compose topology with a host per node: the central managers' link cut and healed",
          "[docker][local][netns]") {
  if (auto why = NetLab::unavailable()) {
    WARN("skipped: " << *why);
    return;
  }
  LocalCluster c;
  c.up({"--netns"});
  // As in the containers: every node on port 9618 at an address of its
  // own, CONDOR_HOST naming the services.
  CHECK(c.nodes()["cm1"]["env"]["CONDOR_HOST"] == "cm1:9618, cm2:9618");
  CHECK(c.nodes()["cm1"]["address"] != c.nodes()["cm2"]["address"]);
  auto sees = [&](const std::string& cm, const std::string& what) {
    return c.negotiators(cm, cm + ":9618").find(what) != std::string::npos;
  };
  REQUIRE(await([&] { return sees("cm1", "cm1 true 1") && sees("cm2", "cm1 true 1"); }, 60));

  // Cut: with two central managers each side elects its own (HTCondor's
  // rule), in a newer term.
  REQUIRE(c.run({"cut", "cm1", "cm2"}).exit_code == 0);
  REQUIRE(await([&] { return sees("cm2", "cm2 true 2"); }, 60));
  CHECK(sees("cm1", "cm1 true 1"));

  // Healed: the newer term keeps the role, the other stands by.
  REQUIRE(c.run({"heal", "cm1", "cm2"}).exit_code == 0);
  REQUIRE(await(
      [&] { return !sees("cm1", "cm1 true") && !sees("cm2", "cm1 true") && sees("cm1", "cm2 true 2"); }, 60));
  CHECK_THAT(read(c.dir / "nodes/cm1/root/var/lib/caracara/log/HADLog"),
             Catch::Contains("standing by in term 2"));

  // The namespaces go with the cluster.
  const std::string tag = c.state()["lab"]["tag"];
  REQUIRE(c.run({"down"}, 120000).exit_code == 0);
  CHECK(run_process({"/usr/sbin/ip", "netns", "list"}).out.find("lc" + tag + "n") == std::string::npos);
}
