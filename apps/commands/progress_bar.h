// cara submit's progress bar: how far the schedd has come building the
// jobs of a large submission, drawn on one terminal line that is cleared
// again once the answer comes, so that what follows ("N job(s) submitted
// to cluster C.") reads as condor_submit's does. Drawn only for
// submissions of at least `least` jobs, and only when told to (standard
// output is a terminal).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

namespace cara::apps {

class ProgressBar {
 public:
  explicit ProgressBar(std::ostream& out, std::int64_t least = 1000) : out_(out), least_(least) {}
  // `done` of `total`: redrawn when the whole percentage changes.
  void update(std::int64_t done, std::int64_t total);
  // Clears the line if anything was drawn.
  void finish();
  bool drawn() const { return shown_ >= 0; }

  // The line itself: "Submitting job(s) [#####-----]  50% 10000/20000",
  // the bar `width` characters wide.
  static std::string line(std::int64_t done, std::int64_t total, int width = 30);

 private:
  std::ostream& out_;
  std::int64_t least_;
  int shown_ = -1;  // the percentage drawn last; -1: nothing drawn
};

}  // namespace cara::apps
