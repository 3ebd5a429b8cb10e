// Time functions: time, absTime, relTime, splitTime, formatTime, interval.
// "Now" and the local zone come from the EvalEnv, never from the machine.
#include <cmath>

#include "model/classad/classad.h"
#include "model/classad/functions/support.h"
#include "model/classad/time_format.h"

namespace cara::classad {
namespace {

Value time_fn(FnArgs& args, std::string_view) {
  if (args.size() != 0) return Value::error();
  return Value::integer(args.env().now);
}

// absTime(), absTime("2004-01-01T..."), absTime(secs [, offset]).
Value abs_time_fn(FnArgs& args, std::string_view) {
  const EvalEnv& env = args.env();
  if (args.size() == 0) return Value::abs_time(env.now, env.local_offset);
  if (args.size() > 2) return Value::error();
  Value t = args.eval(0);
  if (t.is_undefined()) return t;
  if (t.is_string()) {
    if (args.size() != 1) return Value::error();
    auto parsed = parse_abs_time(t.as_string(), env.local_offset);
    return parsed ? Value::abs_time(parsed->secs, parsed->offset) : Value::error();
  }
  if (t.is_abs_time() && args.size() == 1) return t;
  double secs;
  if (!t.number(secs)) return Value::error();
  std::int64_t offset = env.local_offset;
  if (args.size() == 2) {
    Value z = args.eval(1);
    if (!z.is_int()) return Value::error();
    offset = z.as_int();
  }
  std::int64_t whole;
  Value::real(secs).number(whole);
  return Value::abs_time(whole, static_cast<std::int32_t>(offset));
}

Value rel_time_fn(FnArgs& args, std::string_view) {
  if (args.size() != 1) return Value::error();
  Value t = args.eval(0);
  if (t.is_undefined() || t.is_rel_time()) return t;
  if (t.is_string()) {
    auto parsed = parse_rel_time(t.as_string());
    return parsed ? Value::rel_time(*parsed) : Value::error();
  }
  double secs;
  if (!t.number(secs)) return Value::error();
  return Value::rel_time(secs);
}

// An absolute time from an abstime or a number of epoch seconds (local).
bool absolute(const Value& t, const EvalEnv& env, std::int64_t& secs, std::int32_t& offset) {
  if (t.is_abs_time()) {
    secs = t.abs_secs();
    offset = t.abs_offset();
    return true;
  }
  if (t.is_int() || t.is_real()) {
    t.number(secs);
    offset = env.local_offset;
    return true;
  }
  return false;
}

Value split_time_fn(FnArgs& args, std::string_view) {
  if (args.size() != 1) return Value::error();
  Value t = args.eval(0);
  auto ad = std::make_shared<ClassAd>();
  if (t.is_rel_time()) {
    double r = t.rel_secs();
    double sign = r < 0 ? -1 : 1;
    double a = std::fabs(r);
    auto whole = static_cast<std::int64_t>(a);
    double secs = std::fmod(a, 60.0);
    ad->set("Type", "RelativeTime");
    ad->set("Days", static_cast<std::int64_t>(sign * static_cast<double>(whole / 86400)));
    ad->set("Hours", static_cast<std::int64_t>(sign * static_cast<double>(whole % 86400 / 3600)));
    ad->set("Minutes", static_cast<std::int64_t>(sign * static_cast<double>(whole % 3600 / 60)));
    if (secs == std::floor(secs)) ad->set("Seconds", static_cast<std::int64_t>(sign * secs));
    else ad->set("Seconds", sign * secs);
    return Value::ad(AdRef{ad, nullptr});
  }
  std::int64_t secs;
  std::int32_t offset;
  if (!absolute(t, args.env(), secs, offset)) return Value::error();
  CivilTime c = civil_from_secs(secs, offset);
  ad->set("Type", "AbsoluteTime");
  ad->set("Year", c.year);
  ad->set("Month", c.month);
  ad->set("Day", c.day);
  ad->set("Hours", c.hour);
  ad->set("Minutes", c.minute);
  ad->set("Seconds", c.second);
  ad->set("Offset", offset);
  return Value::ad(AdRef{ad, nullptr});
}

// formatTime([t [, format]]): strftime conversions, "%c" by default.
Value format_time_fn(FnArgs& args, std::string_view) {
  const EvalEnv& env = args.env();
  if (args.size() > 2) return Value::error();
  std::int64_t secs = env.now;
  std::int32_t offset = env.local_offset;
  std::string format = "%c";
  if (args.size() >= 1) {
    Value t = args.eval(0);
    if (t.is_ad()) {
      // A splitTime() ad: its components as they are.
      const ClassAd& ad = *t.as_ad().ad;
      auto get = [&](const char* name) {
        const Attribute* a = ad.find(name);
        if (!a || a->expr->root().kind != NodeKind::Integer) return std::int64_t{0};
        return a->expr->root().num.i;
      };
      std::int64_t local = days_from_civil(get("Year"), static_cast<int>(get("Month")),
                                           static_cast<int>(get("Day"))) * 86400 +
                           get("Hours") * 3600 + get("Minutes") * 60 + get("Seconds");
      offset = static_cast<std::int32_t>(get("Offset"));
      secs = local - offset;
    } else if (!absolute(t, env, secs, offset)) {
      return Value::error();
    }
  }
  if (args.size() == 2) {
    Value f = args.eval(1);
    if (!f.is_string()) return Value::error();
    format = f.as_string();
  }
  return Value::string(format_time(civil_from_secs(secs, offset), offset, secs, format));
}

// interval(seconds) = "[days+]hh:mm:ss" with leading zero fields dropped.
Value interval_fn(FnArgs& args, std::string_view) {
  if (args.size() != 1) return Value::error();
  Value v = args.eval(0);
  if (v.is_undefined()) return v;
  std::int64_t secs;
  if (!v.is_number() || !v.number(secs)) return Value::error();
  return Value::string(format_rel_time(static_cast<double>(secs)));
}

}  // namespace

void register_time_functions(FunctionRegistry& r) {
  r.add("time", time_fn);
  r.add("absTime", abs_time_fn);
  r.add("relTime", rel_time_fn);
  r.add("splitTime", split_time_fn);
  r.add("formatTime", format_time_fn);
  r.add("interval", interval_fn);
}

}  // namespace cara::classad
