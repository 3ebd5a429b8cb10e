#include "model/schedd/autocluster.h"

#include <strings.h>

#include <algorithm>
#include <cstring>

#include "model/classad/symbol.h"
#include "model/classad/unparse.h"

namespace cara::schedd {
namespace {

constexpr const char* kAlways[] = {"Requirements", "Rank", "JobUniverse", "NiceUser", "ConcurrencyLimits"};

bool is_request(std::string_view name) {
  return name.size() > 7 && classad::iequals(name.substr(0, 7), "Request");
}

// Appends a literal in a form that differs exactly when the values
// differ (type and bytes); false when it must be unparsed instead.
bool append_literal(std::string& out, const classad::Value& v) {
  out += static_cast<char>('0' + static_cast<int>(v.type()));
  if (v.is_string()) {
    // Strings carry no length: the separator that follows ends them, so a
    // string holding a separator is unparsed instead.
    if (v.as_string().find_first_of("\x1d\x1e\x1f") != std::string_view::npos) return false;
    out.append(v.as_string());
  } else if (v.is_int() || v.is_bool()) {
    const std::int64_t i = v.is_int() ? v.as_int() : v.as_bool();
    out.append(reinterpret_cast<const char*>(&i), sizeof i);
  } else if (v.is_real()) {
    const double r = v.as_real();
    out.append(reinterpret_cast<const char*>(&r), sizeof r);
  }
  return true;
}

// Request* names, without a case-insensitive compare for every attribute
// of every job.
bool is_request_attr(std::string_view name) {
  return name.size() > 7 && (name[0] | 0x20) == 'r' && is_request(name);
}

bool less_ci(std::string_view a, std::string_view b) {
  const int c = ::strncasecmp(a.data(), b.data(), std::min(a.size(), b.size()));
  return c != 0 ? c < 0 : a.size() < b.size();
}

}  // namespace

SignificantAttributes SignificantAttributes::from_list(const std::vector<std::string>& names) {
  SignificantAttributes s;
  s.names_.insert(names.begin(), names.end());
  return s;
}

SignificantAttributes SignificantAttributes::from_expressions(
    const std::vector<std::pair<const classad::ExprTree*, const classad::ClassAd*>>& exprs) {
  classad::References refs;
  for (auto [expr, ad] : exprs)
    if (expr != nullptr) classad::collect_references(*expr, ad, refs);
  SignificantAttributes s;
  s.names_ = std::move(refs.external);
  return s;
}

SignificantAttributes SignificantAttributes::from_slots(
    const std::vector<const classad::ClassAd*>& slots,
    const std::vector<const classad::ExprTree*>& negotiator) {
  std::vector<std::pair<const classad::ExprTree*, const classad::ClassAd*>> exprs;
  for (const classad::ClassAd* slot : slots) {
    for (const char* name : {"START", "Requirements", "Rank"}) {
      if (const classad::Attribute* a = slot->find(name); a && a->expr)
        exprs.emplace_back(a->expr.get(), slot);
    }
  }
  // A negotiator expression's unscoped names are slot attributes or job
  // attributes; without a slot at hand, only TARGET.x counts as the job's
  // (and in PREEMPTION_* MY is the slot, TARGET the candidate job).
  for (const classad::ExprTree* e : negotiator)
    if (e != nullptr) exprs.emplace_back(e, slots.empty() ? nullptr : slots.front());
  return from_expressions(exprs);
}

AutoclusterIndex::AutoclusterIndex(SignificantAttributes significant) : significant_(std::move(significant)) {
  classad::NameSet all = significant_.names();
  for (const char* name : kAlways) all.insert(name);
  for (const std::string& name : all) {
    if (is_request(name)) continue;  // Request* are taken from each job
    fixed_.push_back(name);
    fixed_symbols_.push_back(classad::intern(name));
  }
}

const std::vector<std::string>& AutoclusterIndex::own_references(const classad::ClassAd& job) {
  static const classad::Symbol kRequirements = classad::intern("Requirements"),
                               kRank = classad::intern("Rank");
  const classad::Attribute* req = job.find(kRequirements);
  const classad::Attribute* rank = job.find(kRank);
  // A literal refers to nothing, so only expression trees are keys (each
  // job has its own literal Rank tree; keying by it would miss every time).
  const auto tree = [](const classad::Attribute* a) {
    return a && a->expr && !a->is_literal() ? a->expr : classad::ExprPtr{};
  };
  const classad::ExprPtr r = tree(req), k = tree(rank);
  const Key key{r.get(), k.get()};
  if (auto it = references_.find(key); it != references_.end()) return it->second.names;
  classad::References refs;
  if (r) classad::collect_references(*r, &job, refs);
  if (k) classad::collect_references(*k, &job, refs);
  Cached c{r, k, {}};
  for (const std::string& n : refs.internal) c.names.push_back(n);
  return (references_[key] = std::move(c)).names;
}

void AutoclusterIndex::append_value(std::string& out, const classad::Attribute& a) {
  if (a.is_literal()) {
    const std::size_t mark = out.size();
    if (append_literal(out, a.literal())) return;
    out.resize(mark);
  }
  // Jobs of one submission share their expression trees: each is
  // unparsed once.
  auto it = texts_.find(a.expr.get());
  if (it == texts_.end())
    it = texts_.emplace(a.expr.get(), std::pair{a.expr, 'e' + classad::unparse(*a.expr)}).first;
  out += it->second.second;
}

std::string AutoclusterIndex::signature(const classad::ClassAd& job) {
  return compute(job);
}

const std::string& AutoclusterIndex::compute(const classad::ClassAd& job) {
  std::string& out = scratch_;
  out.clear();
  const auto add = [&](classad::Symbol sym, std::string_view name) {
    const classad::Attribute* a = job.find(sym);
    for (char ch : name) out += classad::ascii_lower(ch);
    out += '\x1f';
    if (a != nullptr && a->expr) append_value(out, *a);
    out += '\x1e';
  };
  for (std::size_t i = 0; i < fixed_.size(); ++i) add(fixed_symbols_[i], fixed_[i]);
  // Request* and the job's own references, in name order so that the
  // order attributes were inserted in does not matter.
  std::vector<std::string_view>& extra = extra_;
  extra.clear();
  for (const classad::Attribute& a : job.attributes())
    if (is_request_attr(a.name)) extra.push_back(a.name);
  for (const std::string& n : own_references(job))
    if (!significant_.names().count(n) && !is_request(n)) extra.push_back(n);
  std::sort(extra.begin(), extra.end(), less_ci);
  extra.erase(std::unique(extra.begin(), extra.end(),
                          [](std::string_view a, std::string_view b) { return classad::iequals(a, b); }),
              extra.end());
  out += '\x1d';
  for (std::string_view n : extra) add(classad::intern(n), n);
  return out;
}

int AutoclusterIndex::assign(const classad::ClassAd& job) {
  const std::string& key = compute(job);
  if (auto it = ids_.find(key); it != ids_.end()) return it->second;
  const int id = static_cast<int>(ids_.size());
  ids_.emplace(key, id);
  return id;
}

std::vector<ResourceRequest> AutoclusterIndex::requests(const std::vector<const classad::ClassAd*>& jobs) {
  std::vector<ResourceRequest> out;
  std::unordered_map<int, std::size_t> where;
  for (const classad::ClassAd* job : jobs) {
    const int id = assign(*job);
    auto [it, fresh] = where.try_emplace(id, out.size());
    if (fresh) out.push_back(ResourceRequest{id, job, 0, {}});
    ResourceRequest& r = out[it->second];
    ++r.count;
    r.jobs.push_back(job_id(*job));
  }
  return out;
}

}  // namespace cara::schedd
