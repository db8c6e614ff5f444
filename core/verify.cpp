#include "core/verify.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace simjoin {

double float32_tolerance(std::size_t dims) {
  return std::max(1e-6, 4.0 * double(dims + 2) * std::ldexp(1.0, -24));
}

namespace {
bool within_tolerance(const Pair& pair, const PointSet& a, const PointSet& b, double eps,
                      double tolerance) {
  const float* p = a.point(pair.i);
  const float* q = b.point(pair.j);
  double sum = 0;
  for (std::size_t k = 0; k < a.dims(); ++k) {
    const double diff = double(p[k]) - double(q[k]);
    sum += diff * diff;
  }
  const double eps2 = eps * eps;
  return std::abs(sum - eps2) <= tolerance * eps2;
}

std::uint64_t remove_duplicates(std::vector<Pair>& pairs) {
  std::sort(pairs.begin(), pairs.end());
  const auto last = std::unique(pairs.begin(), pairs.end());
  const auto removed = std::uint64_t(pairs.end() - last);
  pairs.erase(last, pairs.end());
  return removed;
}
}  // namespace

VerifyReport compare_pairs(std::vector<Pair> got, std::vector<Pair> expected, const PointSet& a,
                           const PointSet* b, double eps, double relative_tolerance) {
  VerifyReport report;
  report.duplicates = remove_duplicates(got);
  remove_duplicates(expected);
  const PointSet& other = b ? *b : a;
  std::vector<Pair> missing, extra;
  std::set_difference(expected.begin(), expected.end(), got.begin(), got.end(),
                      std::back_inserter(missing));
  std::set_difference(got.begin(), got.end(), expected.begin(), expected.end(),
                      std::back_inserter(extra));
  for (auto* list : {&missing, &extra}) {
    auto& target = list == &missing ? report.missing : report.extra;
    for (const Pair& pair : *list) {
      const bool valid = pair.i < a.size() && pair.j < other.size() && (b || pair.i < pair.j);
      if (valid && within_tolerance(pair, a, other, eps, relative_tolerance))
        ++report.tolerated;
      else
        target.push_back(pair);
    }
  }
  return report;
}

std::string VerifyReport::summary() const {
  std::ostringstream out;
  out << missing.size() << " missing, " << extra.size() << " extra, " << duplicates
      << " duplicated, " << tolerated << " within rounding tolerance of eps";
  const auto show = [&](const char* what, const std::vector<Pair>& pairs) {
    for (std::size_t i = 0; i < std::min<std::size_t>(pairs.size(), 5); ++i)
      out << "\n  " << what << " (" << pairs[i].i << ", " << pairs[i].j << ")";
  };
  show("missing", missing);
  show("extra", extra);
  return out.str();
}

}  // namespace simjoin
