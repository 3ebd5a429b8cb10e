#include "model/common/regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

namespace cara {

struct Regex::Impl {
  pcre2_code* code = nullptr;
  pcre2_match_data* data = nullptr;
  ~Impl() {
    if (data) pcre2_match_data_free(data);
    if (code) pcre2_code_free(code);
  }
};

Regex::Regex() : impl_(std::make_unique<Impl>()) {}
Regex::~Regex() = default;
Regex::Regex(Regex&&) noexcept = default;
Regex& Regex::operator=(Regex&&) noexcept = default;

bool Regex::compile(std::string_view pattern, RegexOptions options, std::string* error) {
  impl_ = std::make_unique<Impl>();
  std::uint32_t flags = 0;
  if (options.caseless) flags |= PCRE2_CASELESS;
  if (options.multiline) flags |= PCRE2_MULTILINE;
  if (options.dotall) flags |= PCRE2_DOTALL;
  if (options.extended) flags |= PCRE2_EXTENDED;
  int err = 0;
  PCRE2_SIZE offset = 0;
  impl_->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), flags, &err,
                              &offset, nullptr);
  if (!impl_->code) {
    if (error) {
      PCRE2_UCHAR buf[256];
      pcre2_get_error_message(err, buf, sizeof buf);
      *error = std::string(reinterpret_cast<const char*>(buf)) + " at offset " + std::to_string(offset);
    }
    return false;
  }
  impl_->data = pcre2_match_data_create_from_pattern(impl_->code, nullptr);
  if (!impl_->data && error) *error = "out of memory";
  return impl_->data != nullptr;
}

int Regex::search(std::string_view subject, std::size_t start) const {
  if (!impl_->code) return 0;
  int rc = pcre2_match(impl_->code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), start, 0,
                       impl_->data, nullptr);
  return rc > 0 ? rc : 0;
}

std::size_t Regex::group_start(int g) const {
  PCRE2_SIZE v = pcre2_get_ovector_pointer(impl_->data)[2 * g];
  return v == PCRE2_UNSET ? kUnset : v;
}

std::size_t Regex::group_end(int g) const {
  PCRE2_SIZE v = pcre2_get_ovector_pointer(impl_->data)[2 * g + 1];
  return v == PCRE2_UNSET ? kUnset : v;
}

std::uint32_t Regex::capture_count() const {
  std::uint32_t n = 0;
  if (impl_->code) pcre2_pattern_info(impl_->code, PCRE2_INFO_CAPTURECOUNT, &n);
  return n;
}

}  // namespace cara
