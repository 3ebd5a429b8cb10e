// Loading a configuration: the main file, includes, LOCAL_CONFIG_DIR and
// LOCAL_CONFIG_FILE in HTCondor's order, the environment, prefixes, typed
// values and built-in defaults.
#include "tests/unit/config/support.h"

using namespace cara::config;
using namespace cara::config::test;

namespace {

cara::Result<Config> load_main(std::shared_ptr<MemoryHost> h, DaemonIdentity who = {"TOOL", ""}) {
  LoadOptions o;
  o.config_file = "/etc/cara/main.config";
  o.who = std::move(who);
  return load_config(o, h);
}

}  // namespace

TEST_CASE("include reads another file, relative to the including one", "[config]") {
  auto h = host();
  h->add_file("/etc/cara/main.config",
              "A = 1\ninclude : parts/b.config\ninclude ifexist : parts/none.config\nC = $(B)+1\n");
  h->add_file("/etc/cara/parts/b.config", "B = $(A)0\n@include : /etc/cara/parts/deep.config\n");
  h->add_file("/etc/cara/parts/deep.config", "DEEP = yes\n");
  auto c = load_main(h);
  REQUIRE(c.ok());
  CHECK(val(*c, "C") == "10+1");
  CHECK(val(*c, "DEEP") == "yes");
  CHECK(c->definition("B")->origin.describe() == "/etc/cara/parts/b.config, line 1");
}

TEST_CASE("include errors name the file and line", "[config]") {
  auto h = host();
  h->add_file("/etc/cara/main.config", "A = 1\ninclude : missing.config\n");
  auto c = load_main(h);
  REQUIRE(!c.ok());
  CHECK_THAT(c.error(),
             Catch::Contains("/etc/cara/main.config, line 2") && Catch::Contains("does not exist"));

  h->add_file("/etc/cara/main.config", "include command : /bin/make_config\n");
  CHECK_THAT(load_main(h).error(), Catch::Contains("not supported"));
  h->add_file("/etc/cara/main.config", "include : /bin/make_config |\n");
  CHECK_THAT(load_main(h).error(), Catch::Contains("not supported"));

  h->add_file("/etc/cara/main.config", "include : main.config\n");  // includes itself
  CHECK_THAT(load_main(h).error(), Catch::Contains("nested more than 20 deep"));

  h->add_file("/etc/cara/main.config", "include : bad.config\n");
  h->add_file("/etc/cara/bad.config", "X = 1\nnot a statement\n");
  CHECK_THAT(load_main(h).error(), Catch::Contains("/etc/cara/bad.config, line 2"));
}

TEST_CASE("local configuration: directories in name order, then files", "[config]") {
  auto h = host();
  h->add_file(
      "/etc/cara/main.config",
      "LOCAL_CONFIG_DIR = /etc/cara/config.d\nLOCAL_CONFIG_FILE = /etc/cara/local1, /etc/cara/local2\n"
      "ORDER = main\n");
  h->add_file("/etc/cara/config.d/20-b", "ORDER = $(ORDER) 20-b\n");
  h->add_file("/etc/cara/config.d/10-a", "ORDER = $(ORDER) 10-a\n");
  h->add_file("/etc/cara/config.d/30-c~", "ORDER = $(ORDER) backup\n");       // excluded
  h->add_file("/etc/cara/config.d/.hidden", "ORDER = $(ORDER) hidden\n");     // excluded
  h->add_file("/etc/cara/config.d/x.rpmsave", "ORDER = $(ORDER) rpmsave\n");  // excluded
  h->add_file("/etc/cara/local1", "ORDER = $(ORDER) local1\n");
  h->add_file("/etc/cara/local2", "ORDER = $(ORDER) local2\nLOCAL_CONFIG_DIR = /etc/cara/more.d\n");
  h->add_file("/etc/cara/more.d/99-z", "ORDER = $(ORDER) more\n");
  auto c = load_main(h);
  REQUIRE(c.ok());
  CHECK(val(*c, "ORDER") == "main 10-a 20-b local1 local2 more");
  CHECK(c->files() == std::vector<std::string>{"/etc/cara/main.config", "/etc/cara/config.d/10-a",
                                               "/etc/cara/config.d/20-b", "/etc/cara/local1",
                                               "/etc/cara/local2", "/etc/cara/more.d/99-z"});
}

TEST_CASE("LOCAL_CONFIG_DIR_EXCLUDE_REGEXP is read where a directory is there to read", "[config]") {
  auto h = host();
  h->add_file("/etc/cara/main.config",
              "LOCAL_CONFIG_DIR = /etc/cara/config.d\nLOCAL_CONFIG_DIR_EXCLUDE_REGEXP = ^skip-.*$\n");
  h->add_file("/etc/cara/config.d/skip-me", "SKIPPED = yes\n");
  h->add_file("/etc/cara/config.d/take-me", "TAKEN = yes\n");
  auto c = load_main(h);
  REQUIRE(c.ok());
  CHECK(val(*c, "TAKEN") == "yes");
  CHECK_FALSE(c->value("SKIPPED")->has_value());
  // A pattern that does not compile stops the load, naming the knob.
  h->add_file("/etc/cara/main.config",
              "LOCAL_CONFIG_DIR = /etc/cara/config.d\nLOCAL_CONFIG_DIR_EXCLUDE_REGEXP = ([a-\n");
  CHECK_THAT(load_main(h).error(),
             Catch::Contains("LOCAL_CONFIG_DIR_EXCLUDE_REGEXP: not a regular expression"));
  // With no directory to read, there is nothing to exclude.
  h->add_file("/etc/cara/main.config",
              "LOCAL_CONFIG_DIR = /etc/cara/none.d\nLOCAL_CONFIG_DIR_EXCLUDE_REGEXP = ([a-\n");
  CHECK(load_main(h).ok());
}

TEST_CASE("a missing local file is an error unless REQUIRE_LOCAL_CONFIG_FILE is false", "[config]") {
  auto h = host();
  h->add_file("/etc/cara/main.config", "LOCAL_CONFIG_FILE = /etc/cara/absent\n");
  CHECK_THAT(load_main(h).error(),
             Catch::Contains("/etc/cara/absent") && Catch::Contains("REQUIRE_LOCAL_CONFIG_FILE"));
  h->add_file("/etc/cara/main.config",
              "LOCAL_CONFIG_FILE = /etc/cara/absent\nREQUIRE_LOCAL_CONFIG_FILE = False\n");
  CHECK(load_main(h).ok());
}

TEST_CASE("the main file comes from --config, CARA_CONFIG or the standard places", "[config]") {
  auto h = host();
  LoadOptions o;
  CHECK_THAT(load_config(o, h).error(),
             Catch::Contains("no configuration file") && Catch::Contains("CARA_CONFIG"));
  h->add_file("/etc/caracara/cara_config", "WHERE = standard\n");
  CHECK(val(*load_config(o, h), "WHERE") == "standard");
  h->add_file("/tmp/mine", "WHERE = env\n");
  h->set_env("CARA_CONFIG", "/tmp/mine");
  CHECK(val(*load_config(o, h), "WHERE") == "env");
  h->set_env("CARA_CONFIG", "ONLY_ENV");
  CHECK(val(*load_config(o, h), "WHERE") == "<undefined>");
  h->set_env("CARA_CONFIG", "/tmp/absent");
  CHECK_THAT(load_config(o, h).error(), Catch::Contains("/tmp/absent"));
}

TEST_CASE("environment variables _CARA_NAME override the files, overrides come last", "[config]") {
  auto h = host();
  h->add_file("/etc/cara/main.config", "NEGOTIATOR_INTERVAL = 60\nA = 1\n");
  h->set_env("_CARA_NEGOTIATOR_INTERVAL", "20");
  h->set_env("_cara_A", "2");
  h->set_env("_CARA_not valid", "x");
  LoadOptions o;
  o.config_file = "/etc/cara/main.config";
  o.overrides = {{"A", "3"}};
  auto c = load_config(o, h);
  REQUIRE(c.ok());
  CHECK(*c->integer("NEGOTIATOR_INTERVAL") == 20);
  CHECK(c->definition("NEGOTIATOR_INTERVAL")->origin.describe() == "<environment _CARA_NEGOTIATOR_INTERVAL>");
  CHECK(val(*c, "A") == "3");
}

TEST_CASE("subsystem and local-name prefixes resolve for the reading daemon", "[config]") {
  // The manual's FILESPEC example and its lookup order.
  std::string text =
      "FILESPEC = A\nMASTER.FILESPEC = B\nUSEFILE = mydir/$(FILESPEC)\n"
      "SCHEDD_NAME = main\nSCHEDD.XYZZY.SCHEDD_NAME = XYZZY\nXYZZY.SPOOL = /spool/xyzzy\n"
      "NEGOTIATOR.PRIORITY_HALFLIFE = 3600\n";
  CHECK(val(load(text, host(), {"MASTER", ""}), "USEFILE") == "mydir/B");
  CHECK(val(load(text, host(), {"SCHEDD", ""}), "USEFILE") == "mydir/A");
  CHECK(val(load(text, host(), {"SCHEDD", "XYZZY"}), "SCHEDD_NAME") == "XYZZY");
  CHECK(val(load(text, host(), {"SCHEDD", ""}), "SCHEDD_NAME") == "main");
  CHECK(val(load(text, host(), {"SCHEDD", "XYZZY"}), "SPOOL") == "/spool/xyzzy");
  Config tool = load(text);
  CHECK(*tool.integer("PRIORITY_HALFLIFE") == 86400);
  CHECK(*tool.as({"NEGOTIATOR", ""}).integer("PRIORITY_HALFLIFE") == 3600);
  CHECK(val(tool, "SUBSYSTEM") == "TOOL");
  CHECK(val(tool.as({"NEGOTIATOR", ""}), "SUBSYSTEM") == "NEGOTIATOR");
}

TEST_CASE("typed values evaluate ClassAd expressions of constants", "[config]") {
  Config c = load(
      "MINUTE = 60\nHOUR = (60 * $(MINUTE))\nSHUTDOWN_GRACEFUL_TIMEOUT = ($(HOUR)*24)\n"
      "Q = 18.0/24\nON = true\nOFF = FALSE\nNUM = 3.0\nFRACTION = 2.5\nWORD = hello\n"
      "EXPR = TARGET.Memory >= 1024 && Owner == \"x\"\nBADEXPR = (1 + \n"
      "LIST = a, b c,,d\n");
  CHECK(*c.integer("SHUTDOWN_GRACEFUL_TIMEOUT") == 86400);
  CHECK(*c.integer("NUM") == 3);
  CHECK(*c.real("Q") == Approx(0.75));
  CHECK(*c.boolean("ON"));
  CHECK(!*c.boolean("OFF"));
  CHECK(*c.list("LIST") == std::vector<std::string>{"a", "b", "c", "d"});
  CHECK(c.list("NOT_SET")->empty());
  CHECK(c.expression("EXPR").ok());
  CHECK(*c.string("NOT_SET", "fallback") == "fallback");
  CHECK_THAT(c.integer("FRACTION").error(), Catch::Contains("FRACTION = 2.5") && Catch::Contains("line 8") &&
                                                Catch::Contains("expected an integer"));
  CHECK_THAT(c.boolean("WORD").error(), Catch::Contains("expected True or False"));
  CHECK_THAT(c.integer("NOT_SET").error(), Catch::Contains("NOT_SET is not defined"));
  CHECK_THAT(c.expression("BADEXPR").error(), Catch::Contains("BADEXPR") && Catch::Contains("line 11"));
  // A knob that may be left out: null when not defined or blank.
  CHECK(*c.optional_expression("EXPR") != nullptr);
  CHECK(*c.optional_expression("NOT_SET") == nullptr);
  CHECK(*load("BLANK =   \n").optional_expression("BLANK") == nullptr);
  CHECK_THAT(c.optional_expression("BADEXPR").error(),
             Catch::Contains("BADEXPR") && Catch::Contains("line 11"));
}

TEST_CASE("a knob spelled as a plain number or truth value reads as the ClassAd parser reads it",
          "[config]") {
  // Config::typed reads these without the parser; the answers must be the
  // parser's: the same spellings wrapped in parentheses go through it.
  const std::vector<std::string> spellings = {"0",
                                              "7",
                                              "007",
                                              "-12",
                                              "-0",
                                              "86400",
                                              "999999999999999999",
                                              "9999999999999999999",
                                              "-",
                                              "1e3",
                                              "0x1F",
                                              "TRUE",
                                              "false",
                                              "True",
                                              "tRuE",
                                              "yes",
                                              "12a",
                                              "1.0",
                                              "--3",
                                              "- 3"};
  for (const std::string& s : spellings) {
    INFO(s);
    Config c = load("PLAIN = " + s + "\nWRAPPED = (" + s + ")\n");
    const auto plain_int = c.integer("PLAIN"), wrapped_int = c.integer("WRAPPED");
    REQUIRE(plain_int.ok() == wrapped_int.ok());
    if (plain_int.ok()) CHECK(*plain_int == *wrapped_int);
    const auto plain_bool = c.boolean("PLAIN"), wrapped_bool = c.boolean("WRAPPED");
    REQUIRE(plain_bool.ok() == wrapped_bool.ok());
    if (plain_bool.ok()) CHECK(*plain_bool == *wrapped_bool);
    const auto plain_real = c.real("PLAIN"), wrapped_real = c.real("WRAPPED");
    REQUIRE(plain_real.ok() == wrapped_real.ok());
    if (plain_real.ok()) CHECK(*plain_real == *wrapped_real);
  }
  // An error still names the knob and its text.
  CHECK_THAT(load("N = 12a\n").integer("N").error(), Catch::Contains("N = 12a"));
  CHECK_THAT(load("B = \"on\"\n").boolean("B").error(),
             Catch::Contains("B = \"on\"") && Catch::Contains("True or False"));
}

TEST_CASE("built-in defaults have the documented values", "[config]") {
  Config c = load("");
  CHECK(*c.integer("PRIORITY_HALFLIFE") == 86400);
  CHECK(*c.integer("DEFAULT_PRIO_FACTOR") == 1000);
  CHECK(*c.real("NICE_USER_PRIO_FACTOR") == 1e10);
  CHECK(*c.real("REMOTE_PRIO_FACTOR") == 1e7);
  CHECK(*c.integer("MATCH_TIMEOUT") == 120);
  CHECK(*c.integer("CLASSAD_LIFETIME") == 900);
  CHECK(*c.integer("UPDATE_INTERVAL") == 300);
  CHECK(*c.integer("NEGOTIATOR_INTERVAL") == 60);
  CHECK(!*c.boolean("GROUP_ACCEPT_SURPLUS"));
  // Documented behaviour, not the shipped code (see defaults.cpp).
  CHECK(!*c.boolean("NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION"));
  CHECK(c.expression("GROUP_SORT_EXPR").ok());
  CHECK(c.expression("NEGOTIATOR_PRE_JOB_RANK").ok());
  CHECK(c.definition("PRIORITY_HALFLIFE")->origin.file == "<default>");
  // Every default is a well-formed value: typed or an expression.
  for (const Definition* d : c.macros().all()) {
    INFO(d->name);
    CHECK(c.value(d->name).ok());
  }
}

TEST_CASE("predefined machine macros", "[config]") {
  auto h = host();
  MachineFacts f;
  f.full_hostname = "node7.example.org";
  f.hostname = "node7";
  f.detected_cpus = 24;
  f.detected_memory_mib = 64000;
  h->set_machine(f);
  Config c = load("", h);
  CHECK(val(c, "FULL_HOSTNAME") == "node7.example.org");
  CHECK(val(c, "UID_DOMAIN") == "node7.example.org");
  CHECK(*c.integer("NUM_CPUS") == 24);
  CHECK(*c.integer("MEMORY") == 64000);
}

TEST_CASE("a knob read again reads as before, and a derived or viewing configuration reads its own",
          "[config]") {
  // A configuration keeps the values it expanded (Config::value), so the
  // second read must agree with the first, in every copy.
  Config c = load("A = 1\nB = $(A)2\nCLAIM_WORKLIFE = 5\n");
  CHECK(val(c, "B") == "12");
  const Config copy = c;
  CHECK(val(copy, "B") == "12");
  CHECK(*c.integer("CLAIM_WORKLIFE") == 5);
  CHECK(*c.integer("CLAIM_WORKLIFE") == 5);
  // A configuration made from it has macros of its own: not the values
  // the first one kept.
  CHECK(*c.with_default("CLAIM_WORKLIFE").integer("CLAIM_WORKLIFE") == 1200);
  CHECK(val(c.as({"SCHEDD", ""}), "SUBSYSTEM") == "SCHEDD");
  CHECK(val(c, "SUBSYSTEM") == "TOOL");
  // A view reads the macros as they are now (the reader's view while it
  // reads further files).
  MacroSet macros;
  macros.set("A", "1", Origin{"<test>", 1});
  const Config view = Config::viewing(macros, {"TOOL", ""}, host());
  CHECK(val(view, "A") == "1");
  macros.set("A", "2", Origin{"<test>", 2});
  CHECK(val(view, "A") == "2");
}
