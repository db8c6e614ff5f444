#include <algorithm>

#include "core/io/npy.hpp"
#include "core/io/pair_writers.hpp"

namespace simjoin {

namespace {
template <typename T>
void write_npy_vector(const std::string& path, std::string_view descr, const std::vector<T>& values) {
  const std::uint64_t shape[] = {values.size()};
  OutputFile file(path);
  file.write(npy_header(descr, shape));
  file.write(values.data(), values.size() * sizeof(T));
  file.close();
}
}  // namespace

void write_neighbors_csr(const std::string& prefix, std::vector<Pair> pairs, std::size_t n, bool self_join) {
  // Counting sort by owner: count, prefix-sum into offsets, then place.
  std::vector<std::int64_t> offsets(n + 1, 0);
  for (const Pair& pair : pairs) {
    if (pair.i >= n || (self_join && pair.j >= n))
      fail(ErrorKind::Internal, prefix + ": pair (" + std::to_string(pair.i) + ", " + std::to_string(pair.j) +
                                    ") refers to a point beyond the " + std::to_string(n) + " points");
    ++offsets[pair.i + 1];
    if (self_join) ++offsets[pair.j + 1];
  }
  for (std::size_t p = 0; p < n; ++p) offsets[p + 1] += offsets[p];

  // Pair ids are 32-bit, so the neighbour ids always fit uint32.
  std::vector<std::uint32_t> ids(std::size_t(offsets[n]));
  std::vector<std::int64_t> next(offsets.begin(), offsets.end() - 1);
  for (const Pair& pair : pairs) {
    ids[std::size_t(next[pair.i]++)] = pair.j;
    if (self_join) ids[std::size_t(next[pair.j]++)] = pair.i;
  }
  pairs = {};  // release before sorting the lists
  for (std::size_t p = 0; p < n; ++p) std::sort(ids.begin() + offsets[p], ids.begin() + offsets[p + 1]);

  write_npy_vector(prefix + ".offsets.npy", "<i8", offsets);
  write_npy_vector(prefix + ".ids.npy", "<u4", ids);
}

}  // namespace simjoin
