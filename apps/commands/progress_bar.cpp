#include "apps/commands/progress_bar.h"

#include <algorithm>

namespace cara::apps {

std::string ProgressBar::line(std::int64_t done, std::int64_t total, int width) {
  total = std::max<std::int64_t>(total, 1);
  done = std::clamp<std::int64_t>(done, 0, total);
  const int percent = static_cast<int>(done * 100 / total);
  const int filled = static_cast<int>(done * width / total);
  std::string pct = std::to_string(percent);
  pct.insert(0, 3 - std::min<std::size_t>(3, pct.size()), ' ');
  return "Submitting job(s) [" + std::string(static_cast<std::size_t>(filled), '#') +
         std::string(static_cast<std::size_t>(width - filled), '-') + "] " + pct + "% " +
         std::to_string(done) + "/" + std::to_string(total);
}

void ProgressBar::update(std::int64_t done, std::int64_t total) {
  if (total < least_ || total <= 0) return;
  const int percent = static_cast<int>(std::clamp<std::int64_t>(done, 0, total) * 100 / total);
  if (percent == shown_) return;
  shown_ = percent;
  out_ << '\r' << line(done, total) << std::flush;
}

void ProgressBar::finish() {
  if (!drawn()) return;
  out_ << "\r\x1b[K" << std::flush;  // back to the line's start, cleared
  shown_ = -1;
}

}  // namespace cara::apps
