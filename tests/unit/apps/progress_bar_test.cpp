// cara submit's progress bar (apps/commands/progress_bar.h).
#include "apps/commands/progress_bar.h"

#include <catch2/catch.hpp>
#include <sstream>

using cara::apps::ProgressBar;

TEST_CASE("the progress bar's line", "[submit][progress]") {
  CHECK(ProgressBar::line(0, 20000, 10) == "Submitting job(s) [----------]   0% 0/20000");
  CHECK(ProgressBar::line(10000, 20000, 10) == "Submitting job(s) [#####-----]  50% 10000/20000");
  CHECK(ProgressBar::line(20000, 20000, 10) == "Submitting job(s) [##########] 100% 20000/20000");
  CHECK(ProgressBar::line(25000, 20000, 10) == "Submitting job(s) [##########] 100% 20000/20000");  // clamped
}

TEST_CASE("the progress bar draws large submissions only, once a percent, and clears its line",
          "[submit][progress]") {
  std::ostringstream out;
  ProgressBar bar(out, 1000);
  bar.update(10, 999);  // too small to bother
  CHECK(out.str().empty());
  CHECK_FALSE(bar.drawn());
  bar.update(100, 10000);
  bar.update(101, 10000);  // still 1 %: not drawn again
  bar.update(10000, 10000);
  CHECK(out.str() == "\r" + ProgressBar::line(100, 10000) + "\r" + ProgressBar::line(10000, 10000));
  bar.finish();
  CHECK(out.str().ends_with("\r\x1b[K"));
  CHECK_FALSE(bar.drawn());
  const std::string before = out.str();
  bar.finish();  // nothing drawn: nothing to clear
  CHECK(out.str() == before);
}
