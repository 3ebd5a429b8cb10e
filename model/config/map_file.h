// ClassAd user map files, behind userMap() and FEATURE : AssignAccountingGroup
// (central-manager-configuration, "Setting Accounting Group automatically
// per user"): one entry per line, three fields,
//     *  Alice           group_physics
//     *  /^student_.*/   group_students,group_physics
// the first field a method (`*` for any), the second a user name or a
// /regex/ (optionally followed by i for case-insensitive), the third a
// comma-separated list of groups; \1..\9 in it stand for the regex's
// captures. '#' starts a comment line; a field may be "quoted".
// Literal names are tried before regexes, which are tried in file order
// (HTCondor's MapFile).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/classad/eval_env.h"
#include "model/common/regex.h"
#include "model/common/result.h"

namespace cara::config {

class Config;
class ConfigHost;

class MapFile {
 public:
  // Parses map text; `label` names it in errors ("file, line N: ...").
  static Result<MapFile> parse(std::string_view text, const std::string& label);

  // The groups `user` maps to, or nullopt when no line matches.
  std::optional<std::vector<std::string>> map(std::string_view user) const;

 private:
  struct Pattern {
    std::shared_ptr<Regex> regex;  // shared so MapFile stays copyable
    std::string groups;            // may hold \1..\9
  };
  std::map<std::string, std::string, std::less<>> literal_;
  std::vector<Pattern> patterns_;
};

// The map sets a daemon's userMap() sees, by case-insensitive name.
class UserMapSet final : public classad::UserMaps {
 public:
  void add(std::string name, MapFile map);
  std::optional<std::vector<std::string>> map(std::string_view mapset, std::string_view user) const override;
  bool empty() const { return maps_.empty(); }

 private:
  std::map<std::string, MapFile, std::less<>> maps_;  // upper-cased name
};

// The map sets named by CLASSAD_USER_MAP_NAMES and (for the schedd)
// SCHEDD_CLASSAD_USER_MAP_NAMES, each read from CLASSAD_USER_MAPFILE_<name>
// or given inline by CLASSAD_USER_MAPDATA_<name>.
Result<std::shared_ptr<UserMapSet>> load_user_maps(const Config& config, const ConfigHost& host);

}  // namespace cara::config
