#include <algorithm>

#include "core/io/npy.hpp"
#include "core/io/pair_writers.hpp"
#include "core/memory.hpp"

namespace simjoin {

namespace {
std::vector<std::int64_t> row_offsets(const std::string& prefix, const PairBlocks& pairs, std::size_t n,
                                      bool self_join) {
  std::vector<std::int64_t> offsets(n + 1, 0);
  pairs([&](std::span<const Pair> block) {
    for (const Pair& pair : block) {
      if (pair.i >= n || (self_join && pair.j >= n))
        fail(ErrorKind::Internal, prefix + ": pair (" + std::to_string(pair.i) + ", " + std::to_string(pair.j) +
                                      ") refers to a point beyond the " + std::to_string(n) + " points");
      ++offsets[pair.i + 1];
      if (self_join) ++offsets[pair.j + 1];
    }
  });
  for (std::size_t p = 0; p < n; ++p) offsets[p + 1] += offsets[p];
  return offsets;
}
}  // namespace

void write_neighbors_csr(const std::string& prefix, const PairBlocks& pairs, std::size_t n, bool self_join,
                         std::uint64_t memory_bytes) {
  const std::vector<std::int64_t> offsets = row_offsets(prefix, pairs, n, self_join);
  {
    const std::uint64_t shape[] = {offsets.size()};
    OutputFile file(prefix + ".offsets.npy");
    file.write(npy_header("<i8", shape));
    file.write(offsets.data(), offsets.size() * sizeof(std::int64_t));
    file.close();
  }
  // Pair ids are 32-bit, so the neighbour ids always fit uint32.
  const std::uint64_t shape[] = {std::uint64_t(offsets[n])};
  OutputFile file(prefix + ".ids.npy");
  file.write(npy_header("<u4", shape));
  if (memory_bytes == 0) memory_bytes = std::max<std::uint64_t>(available_memory_bytes() / 4, 4 << 20);
  const auto budget = std::int64_t(memory_bytes / sizeof(std::uint32_t));
  std::vector<std::uint32_t> ids;
  for (std::size_t first = 0; first < n;) {
    // The rows [first, last) whose lists fit the budget (at least one row).
    std::size_t last = std::size_t(std::upper_bound(offsets.begin() + std::ptrdiff_t(first) + 1, offsets.end(),
                                                    offsets[first] + budget) - offsets.begin()) - 1;
    last = std::max(last, first + 1);
    ids.assign(std::size_t(offsets[last] - offsets[first]), 0);
    std::vector<std::int64_t> next(offsets.begin() + std::ptrdiff_t(first), offsets.begin() + std::ptrdiff_t(last));
    const auto place = [&](std::uint32_t row, std::uint32_t id) {
      if (row >= first && row < last) ids[std::size_t(next[row - first]++ - offsets[first])] = id;
    };
    pairs([&](std::span<const Pair> block) {
      for (const Pair& pair : block) {
        place(pair.i, pair.j);
        if (self_join) place(pair.j, pair.i);
      }
    });
    for (std::size_t p = first; p < last; ++p)
      std::sort(ids.begin() + (offsets[p] - offsets[first]), ids.begin() + (offsets[p + 1] - offsets[first]));
    file.write(ids.data(), ids.size() * sizeof(std::uint32_t));
    first = last;
  }
  file.close();
}

void write_neighbors_csr(const std::string& prefix, const std::vector<Pair>& pairs, std::size_t n, bool self_join) {
  write_neighbors_csr(prefix, [&](const std::function<void(std::span<const Pair>)>& visit) { visit(pairs); }, n,
                      self_join);
}

}  // namespace simjoin
