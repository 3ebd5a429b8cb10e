#include "model/config/map_file.h"

#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/config/macro_set.h"

namespace cara::config {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

// Splits a map line into fields: white space separates; "quoted" fields
// and /regex/ fields (up to the closing unescaped '/', then option
// letters) may contain spaces.
Result<std::vector<std::string>> fields(std::string_view line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    if (i >= line.size()) break;
    std::string field;
    if (out.size() == 2 && line[i] != '"') {
      // The groups: the rest of the line ("group_a, group_b" may hold spaces).
      std::string_view rest = line.substr(i);
      while (!rest.empty() && is_space(rest.back())) rest.remove_suffix(1);
      out.emplace_back(rest);
      break;
    }
    if (line[i] == '"') {
      std::size_t close = line.find('"', i + 1);
      if (close == std::string_view::npos) return Error{"unclosed quote"};
      field = std::string(line.substr(i + 1, close - i - 1));
      i = close + 1;
    } else if (line[i] == '/' && out.size() == 1) {
      std::size_t k = i + 1;
      while (k < line.size() && line[k] != '/') k += line[k] == '\\' ? 2 : 1;
      if (k >= line.size()) return Error{"unclosed /regex/"};
      ++k;
      while (k < line.size() && !is_space(line[k])) ++k;  // options
      field = std::string(line.substr(i, k - i));
      i = k;
    } else {
      std::size_t k = i;
      while (k < line.size() && !is_space(line[k])) ++k;
      field = std::string(line.substr(i, k - i));
      i = k;
    }
    out.push_back(std::move(field));
  }
  return out;
}

std::vector<std::string> split_groups(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == ',') {
      std::string_view g = text.substr(start, i - start);
      while (!g.empty() && is_space(g.front())) g.remove_prefix(1);
      while (!g.empty() && is_space(g.back())) g.remove_suffix(1);
      if (!g.empty()) out.emplace_back(g);
      start = i + 1;
    }
  }
  return out;
}

}  // namespace

Result<MapFile> MapFile::parse(std::string_view text, const std::string& label) {
  MapFile m;
  int number = 0;
  for (std::size_t pos = 0; pos <= text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#') continue;
    const std::string where = label + ", line " + std::to_string(number);
    auto f = fields(line);
    if (!f) return Error{where + ": " + f.error()};
    if (f->size() != 3) {
      return Error{where + ": expected three fields (method, user or /regex/, groups), found " +
                   std::to_string(f->size())};
    }
    const std::string& user = (*f)[1];
    if (user.size() >= 2 && user[0] == '/') {
      std::size_t close = user.find_last_of('/');
      if (close == 0) return Error{where + ": unclosed /regex/"};
      RegexOptions options;
      for (char c : user.substr(close + 1)) {
        if (c == 'i')
          options.caseless = true;
        else
          return Error{where + ": unknown regex option '" + std::string(1, c) + "'"};
      }
      auto re = std::make_shared<Regex>();
      std::string error;
      if (!re->compile(user.substr(1, close - 1), options, &error)) {
        return Error{where + ": bad regular expression " + user + ": " + error};
      }
      m.patterns_.push_back(Pattern{std::move(re), (*f)[2]});
    } else {
      m.literal_.emplace(user, (*f)[2]);  // the first line for a name wins
    }
  }
  return m;
}

std::optional<std::vector<std::string>> MapFile::map(std::string_view user) const {
  if (auto it = literal_.find(user); it != literal_.end()) return split_groups(it->second);
  for (const Pattern& p : patterns_) {
    int groups = p.regex->search(user);
    if (groups == 0) continue;
    std::string out;
    for (std::size_t i = 0; i < p.groups.size(); ++i) {
      char c = p.groups[i];
      if (c == '\\' && i + 1 < p.groups.size() && p.groups[i + 1] >= '0' && p.groups[i + 1] <= '9') {
        int g = p.groups[++i] - '0';
        if (g < groups) {
          std::size_t s = p.regex->group_start(g), e = p.regex->group_end(g);
          if (s != Regex::kUnset) out.append(user.substr(s, e - s));
        }
      } else {
        out += c;
      }
    }
    return split_groups(out);
  }
  return std::nullopt;
}

void UserMapSet::add(std::string name, MapFile map) {
  maps_.insert_or_assign(canonical_name(name), std::move(map));
}

std::optional<std::vector<std::string>> UserMapSet::map(std::string_view mapset,
                                                        std::string_view user) const {
  auto it = maps_.find(canonical_name(mapset));
  if (it == maps_.end()) return std::nullopt;
  return it->second.map(user);
}

Result<std::shared_ptr<UserMapSet>> load_user_maps(const Config& config, const ConfigHost& host) {
  auto set = std::make_shared<UserMapSet>();
  for (const char* knob : {"CLASSAD_USER_MAP_NAMES", "SCHEDD_CLASSAD_USER_MAP_NAMES"}) {
    auto names = config.list(knob);
    if (!names) return Error{names.error()};
    for (const std::string& name : *names) {
      auto data = config.value("CLASSAD_USER_MAPDATA_" + name);
      if (!data) return Error{data.error()};
      if (data->has_value()) {
        auto m = MapFile::parse(**data, "CLASSAD_USER_MAPDATA_" + name);
        if (!m) return Error{m.error()};
        set->add(name, std::move(*m));
        continue;
      }
      auto file = config.string("CLASSAD_USER_MAPFILE_" + name);
      if (!file) return Error{file.error()};
      if (file->empty()) {
        return Error{std::string(knob) + " names map " + name + ", but neither CLASSAD_USER_MAPFILE_" + name +
                     " nor CLASSAD_USER_MAPDATA_" + name + " is set"};
      }
      auto text = host.read_file(*file);
      if (!text) return Error{"CLASSAD_USER_MAPFILE_" + name + ": cannot read " + text.error()};
      auto m = MapFile::parse(*text, *file);
      if (!m) return Error{m.error()};
      set->add(name, std::move(*m));
    }
  }
  return set;
}

}  // namespace cara::config
