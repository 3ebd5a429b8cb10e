// A job's arguments as condor_submit reads them: the new syntax (the
// value in double quotes: white space separates, single quotes group, ''
// inside them is a quote, "" a double quote) and the old one (white space
// separates, a double quote needs a backslash).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/classad/classad.h"

namespace cara::schedd {

// What condor_submit refuses in an arguments value (a quote left open, an
// undoubled double quote), or nullopt.
std::optional<std::string> arguments_problem(std::string_view value);

// The argument vector of a job ad: Arguments (new syntax), else Args (old).
std::vector<std::string> job_arguments(const classad::ClassAd& job);

}  // namespace cara::schedd
