// A submit description file as condor_submit reads it: commands
// (`key = value`, `+Attr = expr`, `MY.Attr = expr`) and `queue` statements,
// each queue taking the commands given before it. Comments start with '#';
// a line ending in '\' continues. condor_submit's -append adds commands
// just before the queue statement, and -queue replaces it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/result.h"

namespace cara::schedd {

struct SubmitCommand {
  std::string key;         // as written (case-insensitive); "+Foo" and "MY.Foo" keep their prefix
  std::string value;       // raw: macros are expanded per job
  int line = 0;            // 0 for -append
  bool attribute() const;  // +Attr or MY.Attr: a job ad attribute
  std::string attribute_name() const;
};

// `queue [N] [vars in (...) | vars from file | vars matching patterns]`.
struct QueueStatement {
  enum class Source { Count, List, File, Matching };
  int line = 0;
  std::string count = "1";  // per item; may hold macros
  Source source = Source::Count;
  std::vector<std::string> vars;      // Item when none is named
  std::vector<std::string> items;     // List: the items (a line each, or comma-separated)
  std::string file;                   // File
  std::vector<std::string> patterns;  // Matching
  bool matching_files = false, matching_dirs = false;
};

struct SubmitBlock {
  std::vector<SubmitCommand> commands;  // the commands given since the previous queue
  QueueStatement queue;
};

struct SubmitDescription {
  std::vector<SubmitBlock> blocks;
};

// Parses `text` (labelled `label` in errors, "file, line N: ..."). `appends`
// are command lines added just before the queue statement, `queue` replaces
// it (condor_submit -append / -queue); a file with several queue
// statements cannot take -queue.
Result<SubmitDescription> parse_submit(std::string_view text, const std::string& label,
                                       const std::vector<std::string>& appends = {},
                                       const std::string& queue = {});

// Parses the arguments of a `queue` statement (what follows the keyword).
Result<QueueStatement> parse_queue(std::string_view args, int line);

}  // namespace cara::schedd
