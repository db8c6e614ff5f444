#include "core/base/pair_rows.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "core/base/error.hpp"

namespace simjoin {

namespace {
// Pairs between two cancellation checks: about a millisecond on an idle machine, many times that on a
// loaded one, so the pieces are kept small.
constexpr std::size_t kPairsPerCheck = std::size_t(1) << 14;

std::function<void(std::span<const Pair>)> in_pieces(const RunControl* control,
                                                     const std::function<void(std::span<const Pair>)>& visit) {
  return [control, &visit](std::span<const Pair> block) {
    for (std::size_t begin = 0; begin < block.size(); begin += kPairsPerCheck) {
      if (control) control->throw_if_cancelled();
      visit(block.subspan(begin, std::min(kPairsPerCheck, block.size() - begin)));
    }
  };
}
}  // namespace

void visit_checked(const PairBlocks& pairs, const RunControl* control,
                   const std::function<void(std::span<const Pair>)>& visit) {
  pairs(in_pieces(control, visit));
}

void visit_checked(PairListSink& pairs, const RunControl& control,
                   const std::function<void(std::span<const Pair>)>& visit, bool drain) {
  if (drain)
    pairs.drain_blocks(in_pieces(&control, visit));
  else
    pairs.visit_blocks(in_pieces(&control, visit));
}

std::vector<std::int64_t> row_offsets(const PairBlocks& pairs, std::size_t rows, bool both_ends, int extra,
                                      const RunControl* control) {
  std::vector<std::int64_t> offsets(rows + 1, extra);
  offsets[0] = 0;
  visit_checked(pairs, control, [&](std::span<const Pair> block) {
    for (const Pair& pair : block) {
      if (pair.i >= rows || (both_ends && pair.j >= rows))
        fail(ErrorKind::Internal, "pair (" + std::to_string(pair.i) + ", " + std::to_string(pair.j) +
                                      ") refers to a point beyond the " + std::to_string(rows) + " points");
      ++offsets[pair.i + 1];
      if (both_ends) ++offsets[pair.j + 1];
    }
  });
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
  return offsets;
}

std::vector<std::int64_t> row_offsets(PairListSink& pairs, std::size_t rows, bool both_ends, int extra,
                                      const RunControl& control) {
  return row_offsets([&pairs](const auto& visit) { pairs.visit_blocks(visit); }, rows, both_ends, extra, &control);
}

}  // namespace simjoin
