#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <random>
#include <sstream>
#include <thread>

#include "core/io/pair_writers.hpp"
#include "core/io/scratch_pairs.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/io/temp_dir.hpp"

namespace simjoin::testing {
namespace {

class PairWritersTest : public TempDirTest {};

std::vector<Pair> random_pairs(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::uint32_t> id;
  std::vector<Pair> pairs(count);
  for (Pair& pair : pairs) pair = {id(random), id(random)};
  return pairs;
}

// A parsed .npy file: its header text and raw data.
struct NpyParts {
  std::string header;
  std::string data;
};

NpyParts split_npy(const std::string& bytes) {
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const std::size_t len = std::uint8_t(bytes[8]) | (std::size_t(std::uint8_t(bytes[9])) << 8);
  EXPECT_EQ((10 + len) % 64, 0u);
  return {bytes.substr(10, len), bytes.substr(10 + len)};
}

template <typename T>
std::vector<T> npy_values(const NpyParts& parts) {
  std::vector<T> values(parts.data.size() / sizeof(T));
  std::memcpy(values.data(), parts.data.data(), values.size() * sizeof(T));
  return values;
}

std::vector<Pair> parse_pairs(const std::string& path, PairFormat format) {
  const std::string bytes = read_whole_file(path);
  std::vector<Pair> pairs;
  switch (format) {
    case PairFormat::Csv: {
      std::istringstream in(bytes);
      std::string line;
      std::getline(in, line);
      EXPECT_EQ(line, "i,j");
      char comma;
      Pair pair;
      while (in >> pair.i >> comma >> pair.j) pairs.push_back(pair);
      break;
    }
    case PairFormat::Npy: {
      const NpyParts parts = split_npy(bytes);
      const std::vector<std::uint32_t> ids = npy_values<std::uint32_t>(parts);
      EXPECT_NE(parts.header.find("'descr': '<u4'"), std::string::npos) << parts.header;
      EXPECT_NE(parts.header.find("'shape': (" + std::to_string(ids.size() / 2) + ", 2)"), std::string::npos)
          << parts.header;
      for (std::size_t k = 0; k + 1 < ids.size(); k += 2) pairs.push_back({ids[k], ids[k + 1]});
      break;
    }
    case PairFormat::Binary: {
      EXPECT_EQ(bytes.substr(0, 8), "SJPAIRS1");
      std::uint64_t count = 0;
      std::memcpy(&count, bytes.data() + 8, 8);
      EXPECT_EQ(bytes.size(), 16 + count * 8);
      pairs.resize((bytes.size() - 16) / 8);
      std::memcpy(pairs.data(), bytes.data() + 16, pairs.size() * 8);
      break;
    }
  }
  return pairs;
}

TEST_F(PairWritersTest, FormatFromExtension) {
  EXPECT_EQ(pair_format_for_path("out/pairs.csv"), PairFormat::Csv);
  EXPECT_EQ(pair_format_for_path("pairs.NPY"), PairFormat::Npy);
  EXPECT_EQ(pair_format_for_path("pairs.bin"), PairFormat::Binary);
  EXPECT_TRUE(throws_error([] { pair_format_for_path("pairs.txt"); }, ErrorKind::Usage,
                           {"pairs.txt", "'.txt'", ".csv, .npy or .bin"}));
}

TEST_F(PairWritersTest, FileSinkFedFromSeveralThreadsKeepsEveryPair) {
  SCOPED_TRACE(test_seed());
  // More than one buffer's worth, so that flushes interleave between threads.
  const std::vector<Pair> pairs = random_pairs(200000 + test_seed() % 1000, test_seed());
  for (PairFormat format : {PairFormat::Csv, PairFormat::Npy, PairFormat::Binary}) {
    SCOPED_TRACE(int(format));
    const std::string file = path("pairs.out");
    {
      PairFileSink sink(file, format, 1u << 31);
      std::vector<std::thread> threads;
      const std::size_t thread_count = 4;
      for (std::size_t t = 0; t < thread_count; ++t) {
        threads.emplace_back([&, t] {
          PairBuffer buffer(sink, 1000);
          for (std::size_t k = t; k < pairs.size(); k += thread_count) buffer.push(pairs[k].i, pairs[k].j);
          buffer.flush();
        });
      }
      for (std::thread& thread : threads) thread.join();
      sink.finish();
      EXPECT_EQ(sink.count(), pairs.size());
    }
    std::vector<Pair> read = parse_pairs(file, format);
    std::vector<Pair> expected = pairs;
    std::sort(read.begin(), read.end());
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(read, expected);
  }
}

TEST_F(PairWritersTest, EmptyPairListIsAValidFile) {
  for (PairFormat format : {PairFormat::Csv, PairFormat::Npy, PairFormat::Binary}) {
    const std::string file = path("empty.out");
    {
      PairFileSink sink(file, format, 10);
      sink.finish();
    }
    EXPECT_TRUE(parse_pairs(file, format).empty());
  }
}

TEST_F(PairWritersTest, NpyUsesInt64WhenIdsMayExceedUint32) {
  const std::string file = path("wide.npy");
  {
    PairFileSink sink(file, PairFormat::Npy, 5'000'000'000ull);
    const Pair pairs[] = {{1, 2}, {4'000'000'000u, 7}};
    sink.add(pairs);
    sink.finish();
  }
  const NpyParts parts = split_npy(read_whole_file(file));
  EXPECT_NE(parts.header.find("'descr': '<i8'"), std::string::npos) << parts.header;
  EXPECT_NE(parts.header.find("'shape': (2, 2)"), std::string::npos) << parts.header;
  EXPECT_EQ(npy_values<std::int64_t>(parts), (std::vector<std::int64_t>{1, 2, 4'000'000'000, 7}));
}

TEST_F(PairWritersTest, UnfinishedFileLeavesNoTraceAndTheOlderFile) {
  const std::string file = path("partial.bin");
  {
    PairFileSink sink(file, PairFormat::Binary, 10);
    const Pair pairs[] = {{1, 2}};
    sink.add(pairs);
    EXPECT_FALSE(std::filesystem::exists(file));
  }
  EXPECT_TRUE(std::filesystem::is_empty(std::filesystem::path(file).parent_path()));
  const std::string older = write_file("older.npy", "the older file");
  {
    PairFileSink sink(older, PairFormat::Npy, 10);
    const Pair pairs[] = {{1, 2}};
    sink.add(pairs);
  }
  EXPECT_EQ(read_whole_file(older), "the older file");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(std::filesystem::path(older).parent_path()),
                          std::filesystem::directory_iterator()),
            1);
}

TEST_F(PairWritersTest, ScratchPairFileIsReadBackThenRemoved) {
  std::string scratch;
  {
    PairFileSink sink(path("p"), PairFormat::Binary, 10, /*scratch=*/true);
    const Pair pairs[] = {{1, 2}, {3, 4}};
    sink.add(pairs);
    sink.finish();
    scratch = sink.data_path();
    EXPECT_NE(scratch, path("p"));
    std::vector<Pair> read;
    binary_pair_file_blocks(scratch)(
        [&](std::span<const Pair> block) { read.insert(read.end(), block.begin(), block.end()); });
    EXPECT_EQ(read, (std::vector<Pair>{{1, 2}, {3, 4}}));
  }
  EXPECT_FALSE(std::filesystem::exists(scratch));
  EXPECT_FALSE(std::filesystem::exists(path("p")));
}

// The files in the test's directory (the scratch file is a hidden temporary).
std::size_t files_in(const std::string& directory) {
  return std::size_t(std::distance(std::filesystem::directory_iterator(directory), {}));
}

TEST_F(PairWritersTest, ScratchPairsStayInMemoryWhileTheyFitThenSpillToAFile) {
  SCOPED_TRACE(test_seed());
  const std::vector<Pair> pairs = random_pairs(300'000, test_seed());
  const std::string directory = std::filesystem::path(path("p")).parent_path().string();
  for (const std::uint64_t budget_pairs : {1'000'000u, 100'000u, 1u}) {
    SCOPED_TRACE(budget_pairs);
    {
      ScratchPairs scratch(path("p"), 1u << 31, budget_pairs * sizeof(Pair));
      // Four threads, as an engine's workers, each a quarter in chunks.
      std::vector<std::thread> workers;
      for (std::size_t t = 0; t < 4; ++t)
        workers.emplace_back([&, t] {
          for (std::size_t at = t * 75'000; at < (t + 1) * 75'000; at += 5'000)
            scratch.add(std::span<const Pair>(pairs).subspan(at, 5'000));
        });
      for (std::thread& worker : workers) worker.join();
      scratch.finish();
      EXPECT_EQ(scratch.spilled(), budget_pairs < pairs.size());
      EXPECT_EQ(files_in(directory), scratch.spilled() ? 1u : 0u);
      for (int pass = 0; pass < 2; ++pass) {
        std::vector<Pair> read;
        scratch.blocks()([&](std::span<const Pair> block) { read.insert(read.end(), block.begin(), block.end()); });
        std::vector<Pair> expected = pairs;
        std::sort(read.begin(), read.end());
        std::sort(expected.begin(), expected.end());
        EXPECT_EQ(read, expected);
      }
    }
    EXPECT_EQ(files_in(directory), 0u) << "the scratch file outlived its sink";
  }
}

TEST_F(PairWritersTest, BinaryPairFileBlocksReplayTheFile) {
  const std::string file = path("p.bin");
  std::vector<Pair> pairs;
  for (std::uint32_t i = 0; i < 3'000'000; i += 3) pairs.push_back({i, i + 7});
  {
    PairFileSink sink(file, PairFormat::Binary, 1u << 31);
    sink.add(pairs);
    sink.finish();
  }
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<Pair> read;
    binary_pair_file_blocks(file)(
        [&](std::span<const Pair> block) { read.insert(read.end(), block.begin(), block.end()); });
    EXPECT_EQ(read, pairs);
  }
  EXPECT_TRUE(throws_error([&] { binary_pair_file_blocks(path("missing.bin"))([](std::span<const Pair>) {}); },
                           ErrorKind::BadInput, {"missing.bin"}));
}

TEST_F(PairWritersTest, WriteFailuresNameThePath) {
  const std::string unwritable = path("no-such-dir/pairs.csv");
  EXPECT_TRUE(throws_error([&] { PairFileSink sink(unwritable, PairFormat::Csv, 10); }, ErrorKind::BadInput,
                           {unwritable, "cannot create"}));
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full to simulate a full disk";
  EXPECT_TRUE(throws_error(
      [] {
        PairFileSink sink("/dev/full", PairFormat::Binary, 10);
        const std::vector<Pair> pairs(1 << 18, Pair{1, 2});
        sink.add(pairs);
        sink.finish();
      },
      ErrorKind::OutOfSpace, {"/dev/full", "No space left"}));
}

TEST_F(PairWritersTest, NeighborsCsrOfASelfJoin) {
  const std::string prefix = path("nb");
  write_neighbors_csr(prefix, {{0, 3}, {2, 4}, {0, 1}, {1, 3}}, 6, true);
  EXPECT_EQ(npy_values<std::int64_t>(split_npy(read_whole_file(prefix + ".offsets.npy"))),
            (std::vector<std::int64_t>{0, 2, 4, 5, 7, 8, 8}));
  EXPECT_EQ(npy_values<std::uint32_t>(split_npy(read_whole_file(prefix + ".ids.npy"))),
            (std::vector<std::uint32_t>{1, 3, 0, 3, 4, 0, 1, 2}));
}

TEST_F(PairWritersTest, NeighborsCsrOfAJoinB) {
  const std::string prefix = path("ab");
  write_neighbors_csr(prefix, {{0, 5}, {2, 1}, {0, 2}}, 3, false);
  const NpyParts offsets = split_npy(read_whole_file(prefix + ".offsets.npy"));
  EXPECT_NE(offsets.header.find("'<i8'"), std::string::npos);
  EXPECT_NE(offsets.header.find("(4,)"), std::string::npos);
  EXPECT_EQ(npy_values<std::int64_t>(offsets), (std::vector<std::int64_t>{0, 2, 2, 3}));
  EXPECT_EQ(npy_values<std::uint32_t>(split_npy(read_whole_file(prefix + ".ids.npy"))),
            (std::vector<std::uint32_t>{2, 5, 1}));
}

TEST_F(PairWritersTest, NeighborsCsrMatchesPairsOnRandomInput) {
  SCOPED_TRACE(test_seed());
  const std::size_t n = 300;
  std::vector<Pair> pairs;
  std::mt19937_64 random(test_seed());
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::uint32_t j = i + 1; j < n; ++j)
      if (random() % 50 == 0) pairs.push_back({i, j});
  // A budget of 64 ids builds the lists a few rows at a time, going over the pairs (in blocks of 97,
  // as from a file) again for each group: the result must be the same.
  const std::string prefix = path("r");
  const PairBlocks blocks = [&](const std::function<void(std::span<const Pair>)>& visit) {
    for (std::size_t first = 0; first < pairs.size(); first += 97)
      visit(std::span<const Pair>(pairs).subspan(first, std::min<std::size_t>(97, pairs.size() - first)));
  };
  write_neighbors_csr(path("whole"), pairs, n, true);
  write_neighbors_csr(prefix, blocks, n, true, nullptr, 64 * sizeof(std::uint32_t));
  EXPECT_EQ(read_whole_file(prefix + ".ids.npy"), read_whole_file(path("whole.ids.npy")));
  EXPECT_EQ(read_whole_file(prefix + ".offsets.npy"), read_whole_file(path("whole.offsets.npy")));
  const auto offsets = npy_values<std::int64_t>(split_npy(read_whole_file(prefix + ".offsets.npy")));
  const auto ids = npy_values<std::uint32_t>(split_npy(read_whole_file(prefix + ".ids.npy")));
  ASSERT_EQ(offsets.size(), n + 1);
  ASSERT_EQ(ids.size(), 2 * pairs.size());
  std::vector<Pair> rebuilt;
  for (std::uint32_t p = 0; p < n; ++p) {
    EXPECT_TRUE(std::is_sorted(ids.begin() + offsets[p], ids.begin() + offsets[p + 1]));
    for (auto k = offsets[p]; k < offsets[p + 1]; ++k)
      if (p < ids[k]) rebuilt.push_back({p, ids[k]});
  }
  std::sort(pairs.begin(), pairs.end());
  EXPECT_EQ(rebuilt, pairs);
}

TEST_F(PairWritersTest, StatsJsonRoundTrip) {
  const nlohmann::json stats = {
      {"engine", "cpu-bruteforce"}, {"pairs", 12345}, {"phases", {{{"name", "join"}, {"seconds", 0.5}}}}};
  const std::string file = path("stats.json");
  write_stats_json(file, stats);
  EXPECT_EQ(nlohmann::json::parse(read_whole_file(file)), stats);
  const std::string unwritable = path("missing/stats.json");
  EXPECT_TRUE(throws_error([&] { write_stats_json(unwritable, stats); }, ErrorKind::BadInput, {unwritable}));
}

}  // namespace
}  // namespace simjoin::testing
