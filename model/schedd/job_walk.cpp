#include "model/schedd/job_walk.h"

#include <algorithm>
#include <memory>
#include <string>

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/common/regex.h"
#include "model/common/text.h"
#include "model/config/config_host.h"
#include "model/config/expander.h"
#include "model/config/macro_set.h"

namespace cara::schedd {
namespace {

// What a submit description's macros read of the world: $RANDOM_* from the
// submission's seed (a MemoryHost's generator), and $ENV(NAME) from the
// submitter's environment, as condor_submit's does: the one the client
// sent, not the schedd's own. Looked up when asked: most descriptions read
// no variable, and a copy of a user's environment per submission was a
// tenth of a one-job submit's walk (issue 21).
class SubmitterHost final : public config::ConfigHost {
 public:
  using Environment = std::vector<std::pair<std::string, std::string>>;
  SubmitterHost(std::uint64_t seed, const Environment& environment)
      : rest_(seed), environment_(environment) {}

  Result<std::string> read_file(const std::string& path) const override { return rest_.read_file(path); }
  Result<std::int64_t> file_size(const std::string& path) const override { return rest_.file_size(path); }
  bool exists(const std::string& path) const override { return rest_.exists(path); }
  bool is_directory(const std::string& path) const override { return rest_.is_directory(path); }
  Result<std::vector<std::string>> list_dir(const std::string& dir) const override {
    return rest_.list_dir(dir);
  }
  std::optional<std::string> env(const std::string& name) const override {
    // The last setting wins, as in an environment built by appending.
    for (auto it = environment_.rbegin(); it != environment_.rend(); ++it)
      if (it->first == name) return it->second;
    return std::nullopt;
  }
  Environment environment() const override { return environment_; }
  std::int64_t random_integer(std::int64_t lo, std::int64_t hi) override {
    return rest_.random_integer(lo, hi);
  }
  config::MachineFacts machine() const override { return rest_.machine(); }

 private:
  config::MemoryHost rest_;
  const Environment& environment_;
};

// A glob (*, ?, [..]) as a regular expression.
std::string glob_regex(std::string_view glob) {
  std::string re = "^";
  for (char c : glob) {
    switch (c) {
      case '*': re += "[^/]*"; break;
      case '?': re += "[^/]"; break;
      case '[': re += '['; break;
      case ']': re += ']'; break;
      case '.':
      case '+':
      case '(':
      case ')':
      case '^':
      case '$':
      case '|':
      case '{':
      case '}':
      case '\\':
        re += '\\';
        re += c;
        break;
      default: re += c;
    }
  }
  return re + "$";
}

// One row of a queue statement: the values of its variables.
using Row = std::vector<std::string>;

Result<std::vector<Row>> queue_rows(const QueueStatement& q, const SubmitContext& ctx,
                                    const std::string& at) {
  std::vector<Row> rows;
  auto split_fields = [&](const std::string& item) {
    Row r;
    if (q.vars.size() == 1) {
      r.push_back(item);
      return r;
    }
    // Several variables: fields split at commas or white space, the last
    // variable taking the rest.
    std::string_view rest = item;
    for (std::size_t v = 0; v < q.vars.size(); ++v) {
      rest = config::trim(rest);
      if (v + 1 == q.vars.size()) {
        r.emplace_back(rest);
        break;
      }
      std::size_t cut = rest.find_first_of(", \t");
      r.emplace_back(rest.substr(0, cut));
      rest = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + 1);
    }
    return r;
  };
  switch (q.source) {
    case QueueStatement::Source::Count: rows.push_back({}); break;
    case QueueStatement::Source::List:
      for (const std::string& item : q.items) rows.push_back(split_fields(item));
      break;
    case QueueStatement::Source::File: {
      if (!ctx.files) return Error{at + ": 'queue ... from " + q.file + "' needs file access"};
      std::string path = q.file[0] == '/' || ctx.iwd.empty() ? q.file : ctx.iwd + "/" + q.file;
      auto text = ctx.files->read_file(path);
      if (!text) return Error{at + ": cannot read the queue's item file " + text.error()};
      for (std::size_t pos = 0; pos <= text->size();) {
        std::size_t end = text->find('\n', pos);
        if (end == std::string::npos) end = text->size();
        std::string_view line = config::trim(std::string_view(*text).substr(pos, end - pos));
        pos = end + 1;
        if (!line.empty() && line[0] != '#') rows.push_back(split_fields(std::string(line)));
      }
      break;
    }
    case QueueStatement::Source::Matching: {
      if (!ctx.files) return Error{at + ": 'queue ... matching' needs file access"};
      std::vector<std::string> found;
      for (const std::string& pattern : q.patterns) {
        std::size_t slash = pattern.find_last_of('/');
        std::string dir = slash == std::string::npos ? ctx.iwd : pattern.substr(0, slash);
        if (!dir.empty() && dir[0] != '/' && !ctx.iwd.empty()) dir = ctx.iwd + "/" + dir;
        std::string name_glob = slash == std::string::npos ? pattern : pattern.substr(slash + 1);
        std::string prefix = slash == std::string::npos ? "" : pattern.substr(0, slash + 1);
        Regex re;
        std::string error;
        if (!re.compile(glob_regex(name_glob), {}, &error))
          return Error{at + ": bad pattern " + pattern + ": " + error};
        auto names = ctx.files->list_dir(dir.empty() ? "." : dir);
        if (!names) continue;  // no such directory: nothing matches
        for (const std::string& n : *names) {
          if (re.search(n) > 0) found.push_back(prefix + n);
        }
      }
      std::sort(found.begin(), found.end());
      found.erase(std::unique(found.begin(), found.end()), found.end());
      for (const std::string& f : found) rows.push_back({f});
      break;
    }
  }
  return rows;
}

// What the queue statements make, before any job is: each block's rows and
// each row's count (so the total is known first: MAX_JOBS_PER_SUBMISSION
// refuses before building, and progress has a whole to measure against).
struct BlockPlan {
  std::vector<Row> rows;
  std::vector<std::int64_t> counts;  // one per row
};

// The submit commands up to `block`, as the jobs of `block` see them:
// commands accumulate across queue statements, the latest value wins.
void take_commands(const SubmitBlock& block, const SubmitContext& ctx, std::vector<SubmitCommand>& commands,
                   config::MacroSet& macros) {
  for (const SubmitCommand& c : block.commands) {
    auto same = std::find_if(commands.begin(), commands.end(),
                             [&](const SubmitCommand& o) { return classad::iequals(o.key, c.key); });
    if (same != commands.end()) commands.erase(same);
    commands.push_back(c);
    if (!c.attribute()) macros.set(c.key, c.value, config::Origin{ctx.label, c.line});
  }
  const config::Origin builtin{"<submit>", 0};
  macros.set("Cluster", std::to_string(ctx.cluster_id), builtin);
  macros.set("ClusterId", std::to_string(ctx.cluster_id), builtin);
}

// Row `r` of `block`'s queue statement: $(Row) and the statement's variables.
void take_row(const SubmitBlock& block, const Row& row, std::size_t r, config::MacroSet& macros) {
  const config::Origin builtin{"<submit>", 0};
  macros.set("Row", std::to_string(r), builtin);
  for (std::size_t v = 0; v < block.queue.vars.size(); ++v)
    macros.set(block.queue.vars[v], v < row.size() ? row[v] : std::string(), builtin);
}

std::string statement_at(const SubmitBlock& block, const SubmitContext& ctx) {
  return block.queue.line > 0 ? ctx.label + ", line " + std::to_string(block.queue.line) : "-queue";
}

Result<std::vector<BlockPlan>> plan_blocks(const SubmitDescription& description, const SubmitContext& ctx,
                                           const config::DaemonIdentity& who, config::ConfigHost& host,
                                           std::int64_t& total) {
  std::vector<BlockPlan> plans;
  config::MacroSet macros;
  std::vector<SubmitCommand> commands;
  total = 0;
  for (const SubmitBlock& block : description.blocks) {
    take_commands(block, ctx, commands, macros);
    const std::string at = statement_at(block, ctx);
    auto rows = queue_rows(block.queue, ctx, at);
    if (!rows) return Error{rows.error()};
    BlockPlan plan;
    plan.rows = std::move(*rows);
    for (std::size_t r = 0; r < plan.rows.size(); ++r) {
      take_row(block, plan.rows[r], r, macros);
      config::Expander count_ex(macros, who, host);
      auto count_text = count_ex.expand(block.queue.count);
      if (!count_text) return Error{at + ": " + count_text.error()};
      auto count = classad::parse_expression(*count_text);
      std::int64_t n = -1;
      if (count) {
        classad::Value v = classad::evaluate(**count, nullptr, nullptr, {});
        if (!v.is_string()) v.number(n);
      }
      if (n < 0 || n > 100000000)
        return Error{at + ": the queue count '" + *count_text + "' is not a number of jobs"};
      if (ctx.max_jobs > 0 && total + n > ctx.max_jobs)
        return Error{at + ": the submission would queue more than MAX_JOBS_PER_SUBMISSION = " +
                     std::to_string(ctx.max_jobs) + " jobs"};
      plan.counts.push_back(n);
      total += n;
    }
    plans.push_back(std::move(plan));
  }
  return plans;
}

}  // namespace

Status walk_jobs(const SubmitDescription& description, const SubmitContext& ctx,
                 const std::function<void(std::int64_t total)>& planned, const JobVisit& visit) {
  auto host = std::make_shared<SubmitterHost>(ctx.random_seed, ctx.environment);
  const config::DaemonIdentity who{"SUBMIT", ""};
  std::int64_t total = 0;
  auto plans = plan_blocks(description, ctx, who, *host, total);
  if (!plans) return Error{plans.error()};
  planned(total);
  config::MacroSet macros;
  std::vector<SubmitCommand> commands;
  const config::Origin builtin{"<submit>", 0};
  std::int64_t proc = 0;
  for (std::size_t b = 0; b < description.blocks.size(); ++b) {
    const SubmitBlock& block = description.blocks[b];
    const BlockPlan& plan = (*plans)[b];
    take_commands(block, ctx, commands, macros);
    for (std::size_t r = 0; r < plan.rows.size(); ++r) {
      take_row(block, plan.rows[r], r, macros);
      for (std::int64_t step = 0; step < plan.counts[r]; ++step, ++proc) {
        macros.set("Step", std::to_string(step), builtin);
        macros.set("Process", std::to_string(proc), builtin);
        macros.set("ProcId", std::to_string(proc), builtin);
        config::Expander ex(macros, who, *host);
        auto more = visit(proc, commands, ex);
        if (!more) return Error{more.error()};
        if (!*more) return Ok{};
      }
    }
  }
  return Ok{};
}

}  // namespace cara::schedd
