// The configuration templates behind `use CATEGORY : NAME` (HTCondor's
// "metaknobs", configuration-templates in its manual). Each expands to
// configuration text read in place of the `use` line, so a later line can
// override what a template set.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/common/result.h"

namespace cara::config {

// The text of template NAME in CATEGORY (both case-insensitive) with its
// arguments, or an error naming what is known.
Result<std::string> template_text(std::string_view category, std::string_view name,
                                  const std::vector<std::string>& args);

// "CATEGORY:Name" of every template, for help and error messages.
std::vector<std::string> template_names();

}  // namespace cara::config
