#include "core/report/verify.hpp"

#include <algorithm>
#include <iterator>
#include <sstream>

namespace simjoin {

namespace {
std::uint64_t remove_duplicates(std::vector<Pair>& pairs) {
  std::sort(pairs.begin(), pairs.end());
  const auto last = std::unique(pairs.begin(), pairs.end());
  const auto removed = std::uint64_t(pairs.end() - last);
  pairs.erase(last, pairs.end());
  return removed;
}
}  // namespace

VerifyReport compare_pairs(std::vector<Pair> got, std::vector<Pair> expected) {
  VerifyReport report;
  report.duplicates = remove_duplicates(got);
  remove_duplicates(expected);
  std::set_difference(expected.begin(), expected.end(), got.begin(), got.end(), std::back_inserter(report.missing));
  std::set_difference(got.begin(), got.end(), expected.begin(), expected.end(), std::back_inserter(report.extra));
  return report;
}

std::string VerifyReport::summary() const {
  std::ostringstream out;
  out << missing.size() << " missing, " << extra.size() << " extra, " << duplicates << " duplicated";
  const auto show = [&](const char* what, const std::vector<Pair>& pairs) {
    for (std::size_t i = 0; i < std::min<std::size_t>(pairs.size(), 5); ++i)
      out << "\n  " << what << " (" << pairs[i].i << ", " << pairs[i].j << ")";
  };
  show("missing", missing);
  show("extra", extra);
  return out.str();
}

}  // namespace simjoin
