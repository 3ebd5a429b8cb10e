// The tables HTCondor's tools print (condor_status, condor_q,
// condor_history, condor_userprio): each column left- or right-aligned,
// as wide as its widest cell and at least `min_width`; one space between
// columns, a blank line after the header unless `blank_after_header` is
// false.
#pragma once

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

namespace cara::apps {

struct Table {
  struct Column {
    std::string header;
    bool right = false;
    std::size_t min_width = 0;
  };
  std::vector<Column> columns;
  std::vector<std::vector<std::string>> rows;
  bool blank_after_header = true;  // condor_status has one; condor_q does not

  std::vector<std::size_t> widths() const {
    std::vector<std::size_t> w;
    for (const Column& c : columns) w.push_back(std::max(c.header.size(), c.min_width));
    for (const auto& r : rows)
      for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], r[i].size());
    return w;
  }
  static void cell(std::ostream& out, const std::string& s, std::size_t width, bool right, bool last) {
    if (right && s.size() < width) out << std::string(width - s.size(), ' ');
    out << s;
    if (!right && !last && s.size() < width) out << std::string(width - s.size(), ' ');
  }
  void line(std::ostream& out, const std::vector<std::string>& r, const std::vector<std::size_t>& w) const {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (i) out << ' ';
      cell(out, i < r.size() ? r[i] : "", w[i], columns[i].right, i + 1 == columns.size());
    }
    out << '\n';
  }
  void print(std::ostream& out) const {
    const auto w = widths();
    std::vector<std::string> header;
    for (const Column& c : columns) header.push_back(c.header);
    line(out, header, w);
    if (blank_after_header) out << '\n';
    for (const auto& r : rows) line(out, r, w);
  }
};

}  // namespace cara::apps
