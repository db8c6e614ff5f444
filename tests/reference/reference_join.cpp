#include "tests/reference/reference_join.hpp"

#include <cmath>

namespace simjoin::reference {

namespace {

// The exponent k that brings eps into [1, 2): frexp gives eps = m 2^e with m in [0.5, 1).
int exponent_for(double eps) {
  int e = 0;
  std::frexp(eps, &e);
  return 1 - e;
}

bool identical(const double* p, const double* q, std::size_t d) {
  for (std::size_t k = 0; k < d; ++k)
    if (!(p[k] == q[k])) return false;
  return true;
}

// Rows [first, last) of `a` against rows of `b` from `from_j(i)` on; appends within-eps pairs in order.
template <typename FirstColumn>
void join_rows(const double* a, std::size_t first, std::size_t last, const double* b, std::size_t nb, std::size_t d,
               double eps, FirstColumn from_j, std::vector<Pair>& out) {
  for (std::size_t i = first; i < last; ++i)
    for (std::size_t j = from_j(i); j < nb; ++j)
      if (within(a + i * d, b + j * d, d, eps)) out.emplace_back(i, j);
}

// Splits the rows of `a` into blocks joined side by side; the blocks' pairs, concatenated in block
// order, are sorted because each block's are.
template <typename FirstColumn>
std::vector<Pair> join_blocks(const double* a, std::size_t na, const double* b, std::size_t nb, std::size_t d,
                              double eps, FirstColumn from_j) {
  constexpr std::size_t kRowsPerBlock = 64;
  const std::size_t blocks = (na + kRowsPerBlock - 1) / kRowsPerBlock;
  std::vector<std::vector<Pair>> found(blocks);
#pragma omp parallel for schedule(dynamic)
  for (std::size_t block = 0; block < blocks; ++block) {
    const std::size_t first = block * kRowsPerBlock;
    const std::size_t last = first + kRowsPerBlock < na ? first + kRowsPerBlock : na;
    join_rows(a, first, last, b, nb, d, eps, from_j, found[block]);
  }
  std::vector<Pair> pairs;
  for (const auto& part : found) pairs.insert(pairs.end(), part.begin(), part.end());
  return pairs;
}

}  // namespace

bool within(const double* p, const double* q, std::size_t d, double eps) {
  if (eps == 0) return identical(p, q, d);
  const int k = exponent_for(eps);
  const double threshold = std::ldexp(eps, k);
  double sum = 0;
  for (std::size_t c = 0; c < d; ++c) {
    const double difference = p[c] - q[c];
    const double scaled = std::ldexp(difference, k);
    const double square = scaled * scaled;
    sum = sum + square;
  }
  return sum <= threshold * threshold;
}

std::vector<Pair> self_join(const double* values, std::size_t n, std::size_t d, double eps) {
  return join_blocks(values, n, values, n, d, eps, [](std::size_t i) { return i + 1; });
}

std::vector<Pair> join(const double* a, std::size_t na, const double* b, std::size_t nb, std::size_t d, double eps) {
  return join_blocks(a, na, b, nb, d, eps, [](std::size_t) { return std::size_t(0); });
}

}  // namespace simjoin::reference
