#include <algorithm>
#include <memory>

#include "core/base/memory.hpp"
#include "core/base/pair_rows.hpp"
#include "core/base/parallel.hpp"
#include "core/io/npy.hpp"
#include "core/io/pair_writers.hpp"

namespace simjoin {

namespace {
// Work between two cancellation checks, about a millisecond on an idle machine: a range of rows to
// sort, bytes to write (pairs are handed over in such pieces by core/base/pair_rows.hpp). On a loaded machine each
// takes many times that, so they are kept small.
constexpr std::size_t kRowsPerCheck = 128;
constexpr std::size_t kBytesPerWrite = std::size_t(4) << 20;

void check(const RunControl* control) {
  if (control) control->throw_if_cancelled();
}

void start_phase(RunControl* control, const std::string& name) {
  if (control) control->set_phase(name);
}

void write_checked(OutputFile& file, const void* data, std::size_t bytes, const RunControl* control) {
  const auto* from = static_cast<const char*>(data);
  for (std::size_t done = 0; done < bytes; done += kBytesPerWrite) {
    check(control);
    file.write(from + done, std::min(kBytesPerWrite, bytes - done));
  }
}

// Groups of rows whose lists take at most `budget` ids (but at least one row each): the rows
// [groups[g], groups[g + 1]).
std::vector<std::size_t> row_groups(const std::vector<std::int64_t>& offsets, std::int64_t budget) {
  const std::size_t n = offsets.size() - 1;
  std::vector<std::size_t> groups{0};
  for (std::size_t first = 0; first < n;) {
    std::size_t last = std::size_t(std::upper_bound(offsets.begin() + std::ptrdiff_t(first) + 1, offsets.end(),
                                                    offsets[first] + budget) -
                                   offsets.begin()) -
                       1;
    first = std::max(last, first + 1);
    groups.push_back(first);
  }
  return groups;
}

// The lists of rows [first, last), `ids` holding them from offsets[first] on: each sorted.
void sort_rows(std::uint32_t* ids, const std::vector<std::int64_t>& offsets, std::size_t first, std::size_t last,
               const RunControl* control) {
  const RunControl unused;
  const std::size_t ranges = (last - first + kRowsPerCheck - 1) / kRowsPerCheck;
  parallel_for_each(ranges, 0, control ? *control : unused, [&](std::size_t range) {
    const std::size_t begin = first + range * kRowsPerCheck, end = std::min(last, begin + kRowsPerCheck);
    for (std::size_t p = begin; p < end; ++p)
      std::sort(ids + (offsets[p] - offsets[first]), ids + (offsets[p + 1] - offsets[first]));
  });
}
}  // namespace

void write_neighbors_csr(const std::string& prefix, const PairBlocks& pairs, std::size_t n, bool self_join,
                         RunControl* control, std::uint64_t memory_bytes) {
  start_phase(control, "counting neighbours");
  const std::vector<std::int64_t> offsets = row_offsets(pairs, n, self_join, 0, control);
  // Both files are renamed into place together at the end, so that a cancel never pairs new offsets
  // with old ids.
  OutputFile offsets_file(prefix + ".offsets.npy"), ids_file(prefix + ".ids.npy");
  const std::uint64_t offsets_shape[] = {offsets.size()};
  offsets_file.write(npy_header("<i8", offsets_shape));
  write_checked(offsets_file, offsets.data(), offsets.size() * sizeof(std::int64_t), control);
  // Pair ids are 32-bit, so the neighbour ids always fit uint32.
  const std::uint64_t ids_shape[] = {std::uint64_t(offsets[n])};
  ids_file.write(npy_header("<u4", ids_shape));
  if (memory_bytes == 0) memory_bytes = std::max<std::uint64_t>(available_memory_bytes() / 4, 4 << 20);
  const std::vector<std::size_t> groups = row_groups(offsets, std::int64_t(memory_bytes / sizeof(std::uint32_t)));
  std::int64_t largest = 0;
  for (std::size_t g = 0; g + 1 < groups.size(); ++g)
    largest = std::max(largest, offsets[groups[g + 1]] - offsets[groups[g]]);
  // Placing writes every entry: the buffer is only touched first, in cancellable steps.
  start_phase(control, "placing neighbours");
  const auto ids = std::make_unique_for_overwrite<std::uint32_t[]>(std::size_t(largest));
  // Huge pages: fewer faults to fill it, and far less for the kernel to free when a cancel ends the process.
  advise_huge_pages(ids.get(), std::size_t(largest) * sizeof(std::uint32_t));
  prefault(ids.get(), std::size_t(largest) * sizeof(std::uint32_t), control);
  for (std::size_t g = 0; g + 1 < groups.size(); ++g) {
    const std::size_t first = groups[g], last = groups[g + 1];
    std::vector<std::int64_t> next(offsets.begin() + std::ptrdiff_t(first), offsets.begin() + std::ptrdiff_t(last));
    const auto place = [&](std::uint32_t row, std::uint32_t id) {
      if (row >= first && row < last) ids[std::size_t(next[row - first]++ - offsets[first])] = id;
    };
    start_phase(control, "placing neighbours");
    visit_checked(pairs, control, [&](std::span<const Pair> block) {
      for (const Pair& pair : block) {
        place(pair.i, pair.j);
        if (self_join) place(pair.j, pair.i);
      }
    });
    start_phase(control, "sorting neighbour lists");
    sort_rows(ids.get(), offsets, first, last, control);
    start_phase(control, "writing neighbour lists");
    write_checked(ids_file, ids.get(), std::size_t(offsets[last] - offsets[first]) * sizeof(std::uint32_t), control);
    if (control) control->report(double(last) / double(n));
  }
  check(control);
  offsets_file.close();
  ids_file.close();
}

void write_neighbors_csr(const std::string& prefix, const std::vector<Pair>& pairs, std::size_t n, bool self_join,
                         RunControl* control) {
  write_neighbors_csr(
      prefix, [&](const std::function<void(std::span<const Pair>)>& visit) { visit(pairs); }, n, self_join, control);
}

}  // namespace simjoin
