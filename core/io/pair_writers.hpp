#pragma once
// Result files: pair lists streamed to disk, per-point neighbour lists, run statistics.
// Formats are described in docs/file-formats.md. Write failures throw Error naming the path:
// OutOfSpace for a full disk, BadInput for a path that cannot be written.
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/base/error.hpp"
#include "core/base/pair_rows.hpp"
#include "core/base/pair_sink.hpp"
#include "core/io/file_io.hpp"

namespace simjoin {

enum class PairFormat { Csv, Npy, Binary };

// .csv, .npy or .bin; anything else throws Error(Usage).
PairFormat pair_format_for_path(const std::string& path);

// Streams pairs to a file as they arrive (thread-safe, buffered), so a pair list larger than memory
// still completes. `max_id` bounds the ids written (e.g. the larger input size); NPY files use uint32
// ids when it fits, else int64. The pairs go to a temporary beside `path` (OutputFile); finish()
// completes the header and renames it onto `path`, so a run that fails or is cancelled leaves no
// file and an older one of that name as it was. A `scratch` sink keeps its file under the temporary
// name, data_path(), until the sink goes: pairs to read back once (e.g. for neighbour lists).
class PairFileSink final : public PairSink {
 public:
  PairFileSink(const std::string& path, PairFormat format, std::uint64_t max_id, bool scratch = false);

  void finish() override;
  const std::string& path() const { return file_.path(); }
  const std::string& data_path() const { return file_.scratch_path(); }

 protected:
  void consume(std::span<const Pair> pairs) override;

 private:
  void encode(const Pair& pair);
  void flush_buffer();
  void write_header(std::uint64_t count);

  OutputFile file_;
  PairFormat format_;
  bool wide_ids_;  // NPY only: int64 instead of uint32
  std::mutex mutex_;
  std::vector<char> buffer_;
  std::uint64_t written_ = 0;
  std::size_t header_size_ = 0;
  std::optional<Error> error_;  // the first write failure, rethrown by every later call
  bool scratch_;
};

// The pairs of a binary pair file (PairFormat::Binary), read in blocks.
PairBlocks binary_pair_file_blocks(const std::string& path);

// Writes PREFIX.offsets.npy (int64, n + 1 entries) and PREFIX.ids.npy (uint32): the neighbours of
// point p are ids[offsets[p] : offsets[p + 1]], sorted. For a self-join every pair (i, j) appears in
// the lists of both i and j; for A join B, the lists belong to the n points of A and hold ids in B.
// The lists are built a group of rows at a time within `memory_bytes` (0: a quarter of the available
// memory), going over the pairs once more for each group, so lists larger than memory complete.
// Cancellable through `control` every few milliseconds; both files are renamed into place together
// at the end, so a cancel or error leaves older files of those names as they were.
void write_neighbors_csr(const std::string& prefix, const PairBlocks& pairs, std::size_t n, bool self_join,
                         RunControl* control = nullptr, std::uint64_t memory_bytes = 0);
void write_neighbors_csr(const std::string& prefix, const std::vector<Pair>& pairs, std::size_t n, bool self_join,
                         RunControl* control = nullptr);

// Writes the JSON document, indented, with a final newline.
void write_stats_json(const std::string& path, const nlohmann::json& json);

}  // namespace simjoin
