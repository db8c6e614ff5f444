#include "tests/reference/real_predicate.hpp"

#include <algorithm>
#include <boost/multiprecision/cpp_int.hpp>
#include <climits>
#include <cmath>
#include <vector>

#include "tests/reference/reference_join.hpp"

namespace simjoin::reference {

namespace {

using Integer = boost::multiprecision::cpp_int;

// x = mantissa * 2^exponent with an integer mantissa of at most 53 bits.
struct Dyadic {
  std::int64_t mantissa = 0;
  int exponent = 0;
};

Dyadic dyadic(double x) {
  if (x == 0) return {0, INT_MAX};
  int e = 0;
  const double m = std::frexp(x, &e);  // x = m 2^e, |m| in [0.5, 1)
  return {std::int64_t(std::ldexp(m, 53)), e - 53};
}

// Values as integers in units of 2^unit, unit being the smallest exponent among them.
class ExactValues {
 public:
  explicit ExactValues(const std::vector<double>& values) {
    std::vector<Dyadic> parts;
    parts.reserve(values.size());
    for (double x : values) {
      parts.push_back(dyadic(x));
      unit_ = std::min(unit_, parts.back().exponent);
    }
    integers_.reserve(values.size());
    for (const Dyadic& part : parts) {
      Integer value = part.mantissa;
      if (part.mantissa != 0) value <<= unsigned(part.exponent - unit_);
      integers_.push_back(value);
    }
  }
  const Integer& operator[](std::size_t i) const { return integers_[i]; }

 private:
  int unit_ = INT_MAX;
  std::vector<Integer> integers_;
};

// Whether the squared distance of rows i and j (d integers each) is at most eps2.
bool real_within(const ExactValues& exact, std::size_t i, std::size_t j, std::size_t d, const Integer& eps2) {
  Integer sum = 0;
  for (std::size_t k = 0; k < d; ++k) {
    const Integer difference = exact[i * d + k] - exact[j * d + k];
    sum += difference * difference;
  }
  return sum <= eps2;
}

}  // namespace

bool within_real(const double* p, const double* q, std::size_t d, double eps) {
  std::vector<double> values(p, p + d);
  values.insert(values.end(), q, q + d);
  values.push_back(eps);
  const ExactValues exact(values);
  const Integer& e = exact[2 * d];
  return real_within(exact, 0, 1, d, e * e);
}

Disagreements count_disagreements(const double* values, std::size_t n, std::size_t d, double eps) {
  std::vector<double> all(values, values + n * d);
  all.push_back(eps);
  const ExactValues exact(all);
  const Integer eps2 = exact[n * d] * exact[n * d];
  Disagreements found;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const bool real = real_within(exact, i, j, d, eps2);
      const bool float64 = within(values + i * d, values + j * d, d, eps);
      ++found.pairs;
      found.real_within += real;
      found.float_only += float64 && !real;
      found.real_only += real && !float64;
    }
  return found;
}

}  // namespace simjoin::reference
