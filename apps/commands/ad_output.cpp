#include "apps/commands/ad_output.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "apps/commands/arguments.h"
#include "apps/commands/tool_options.h"
#include "model/classad/eval.h"
#include "model/classad/unparse.h"

namespace cara::apps {

const char* const kAdOutputUsage =
    "  output: -l | -long | -long:json | -json | -af[:jlhrt,] ATTR... | -format FMT ATTR ... |\n"
    "          -attributes A,B (what -l and -json show)\n";

namespace {

std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      const char c = s[++i];
      out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
    } else {
      out += s[i];
    }
  }
  return out;
}

nlohmann::json value_json(const classad::Value& v) {
  if (v.is_bool()) return v.as_bool();
  if (v.is_int()) return v.as_int();
  if (v.is_real()) return v.as_real();
  if (v.is_string()) return std::string(v.as_string());
  return nullptr;  // undefined
}

// Whether args[i] starts another option (an attribute never does).
bool is_option(const std::string& a) {
  return a.size() > 1 && a[0] == '-';
}

}  // namespace

std::string format_attribute(const std::string& fmt_text, const classad::ClassAd& ad,
                             const std::string& attr) {
  const std::string fmt = unescape(fmt_text);
  const classad::Attribute* found = ad.find(attr);
  const std::size_t pct = fmt.find('%');
  if (pct == std::string::npos) return fmt;
  // The conversion: %[flags][width][.precision]type.
  std::size_t end = pct + 1;
  while (end < fmt.size() && std::string_view("-+ #0123456789.").find(fmt[end]) != std::string_view::npos)
    ++end;
  if (end >= fmt.size()) return fmt;
  if (!found) return "";
  const std::string prefix = fmt.substr(0, pct), spec = fmt.substr(pct, end - pct),
                    suffix = fmt.substr(end + 1);
  const char type = fmt[end];
  const classad::Value v = classad::evaluate_attr(ad, attr);
  char buf[512];
  switch (type) {
    case 'd':
    case 'i':
    case 'x':
    case 'X':
    case 'o': {
      std::int64_t n = 0;
      if (!v.number(n)) return prefix + suffix;
      std::snprintf(buf, sizeof buf, (spec + "ll" + type).c_str(), static_cast<long long>(n));
      break;
    }
    case 'f':
    case 'e':
    case 'g':
    case 'G':
    case 'E': {
      double d = 0;
      if (!v.number(d)) return prefix + suffix;
      std::snprintf(buf, sizeof buf, (spec + type).c_str(), d);
      break;
    }
    case 's':
    case 'v': {
      const std::string s = v.is_string() ? std::string(v.as_string()) : classad::unparse(v);
      std::snprintf(buf, sizeof buf, (spec + 's').c_str(), s.c_str());
      break;
    }
    case 'V': {
      std::snprintf(buf, sizeof buf, (spec + 's').c_str(), classad::unparse(*found->expr).c_str());
      break;
    }
    default: return fmt;  // not a conversion HTCondor knows: printed as written
  }
  return prefix + buf + suffix;
}

std::string ads_json(const std::vector<classad::ClassAd>& ads) {
  nlohmann::json all = nlohmann::json::array();
  for (const classad::ClassAd& ad : ads) {
    nlohmann::json o = nlohmann::json::object();
    for (const classad::Attribute& a : ad.attributes()) {
      const std::string name(a.name);
      if (a.is_literal())
        o[name] = value_json(classad::evaluate_attr(ad, a.name));
      else
        o[name] = "\\/Expr(" + classad::unparse(*a.expr) + ")\\/";
    }
    all.push_back(std::move(o));
  }
  return all.dump(2) + "\n";
}

Result<bool> AdOutput::take(const std::vector<std::string>& args, std::size_t& i) {
  const std::string& a = args[i];
  if (is_flag(a, "l") || is_flag(a, "long")) {
    mode = Mode::Long;
    return true;
  }
  if (is_flag(a, "json") || is_flag(a, "long:json") || is_flag(a, "l:json")) {
    mode = Mode::Json;
    return true;
  }
  if (is_flag(a, "attributes")) {
    if (i + 1 >= args.size()) return Error{a + " expects attribute names, A,B,..."};
    for (std::string& attr : attribute_list(args[++i])) attributes.push_back(std::move(attr));
    return true;
  }
  if (is_flag(a, "format")) {
    if (i + 2 >= args.size()) return Error{a + " expects a printf format and an attribute: -format FMT ATTR"};
    mode = Mode::Format;
    format.emplace_back(args[i + 1], args[i + 2]);
    i += 2;
    return true;
  }
  const std::string af_flag = a.rfind("--", 0) == 0 ? a.substr(2) : a.substr(a.empty() ? 0 : 1);
  const std::size_t colon = af_flag.find(':');
  const std::string base = af_flag.substr(0, colon);
  if (a.empty() || a[0] != '-' || (base != "af" && base != "autoformat")) return false;
  if (colon != std::string::npos) {
    for (char m : af_flag.substr(colon + 1)) {
      switch (m) {
        case 'j': af_jobid = true; break;
        case 'h': af_header = true; break;
        case 'l': af_label = true; break;
        case 'r': af_raw = true; break;
        case 't': af_separator = "\t"; break;
        case ',': af_separator = ","; break;
        case 'n': af_end = "\n\n", af_separator = "\n"; break;
        default:
          return Error{a + ": unknown modifier '" + std::string(1, m) + "'; expected j, l, h, r, t, n or ,"};
      }
    }
  }
  mode = Mode::Autoformat;
  while (i + 1 < args.size() && !is_option(args[i + 1]))
    for (std::string& attr : attribute_list(args[++i])) af.push_back(std::move(attr));
  if (af.empty()) return Error{a + " expects one or more attribute names"};
  return true;
}

std::vector<std::string> AdOutput::projection() const {
  std::vector<std::string> p = attributes;
  if (mode == Mode::Autoformat) {
    p.insert(p.end(), af.begin(), af.end());
    if (af_jobid) p.insert(p.end(), {"ClusterId", "ProcId"});
  }
  if (mode == Mode::Format)
    for (const auto& [fmt, attr] : format) p.push_back(attr);
  return p;
}

void AdOutput::print(std::ostream& out, const std::vector<classad::ClassAd>& ads) const {
  switch (mode) {
    case Mode::Table: return;
    case Mode::Json: out << ads_json(ads); return;
    case Mode::Long:
      for (const classad::ClassAd& ad : ads) out << classad::unparse_long_form(ad) << "\n";
      return;
    case Mode::Format:
      for (const classad::ClassAd& ad : ads)
        for (const auto& [fmt, attr] : format) out << format_attribute(fmt, ad, attr);
      return;
    case Mode::Autoformat: {
      if (af_header) {
        std::string h = af_jobid ? "ID" : "";
        for (const std::string& attr : af) h += (h.empty() ? "" : af_separator) + attr;
        out << h << "\n";
      }
      for (const classad::ClassAd& ad : ads) {
        std::string line;
        if (af_jobid) line = autoformat_value(ad, "ClusterId") + "." + autoformat_value(ad, "ProcId");
        for (std::size_t i = 0; i < af.size(); ++i) {
          const std::string& attr = af[i];
          std::string v;
          if (af_raw) {
            const classad::Attribute* found = ad.find(attr);
            v = found ? classad::unparse(*found->expr) : "undefined";
          } else {
            v = autoformat_value(ad, attr);
          }
          if (af_label) v = attr + " = " + v;
          line += (i == 0 && !af_jobid ? "" : af_separator) + v;
        }
        out << line << af_end;
      }
      return;
    }
  }
}

}  // namespace cara::apps
