// Outputs written under a temporary name and renamed once complete (core/io/atomic_file.hpp), and the
// neighbour lists' writer cancelled part way.
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <thread>

#include "core/io/atomic_file.hpp"
#include "core/io/pair_writers.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/io/temp_dir.hpp"

namespace simjoin::testing {
namespace {

class AtomicFileTest : public TempDirTest {
 protected:
  // The names in the test's directory.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(path("x")).parent_path()))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
};

void write_all(int fd, const std::string& text) {
  ASSERT_EQ(::write(fd, text.data(), text.size()), ssize_t(text.size()));
}

TEST_F(AtomicFileTest, CommitReplacesTheTargetAndDiscardKeepsIt) {
  const std::string target = write_file("out.csv", "old");
  {
    AtomicFile file(target);
    EXPECT_NE(file.written_path(), target);
    EXPECT_EQ(std::filesystem::path(file.written_path()).parent_path(), std::filesystem::path(target).parent_path());
    write_all(file.descriptor(), "new");
    EXPECT_EQ(read_whole_file(target), "old");
  }
  EXPECT_EQ(read_whole_file(target), "old");
  EXPECT_EQ(entries(), std::vector<std::string>{"out.csv"});
  AtomicFile file(target);
  write_all(file.descriptor(), "new");
  file.commit();
  EXPECT_EQ(read_whole_file(target), "new");
  EXPECT_EQ(entries(), std::vector<std::string>{"out.csv"});
}

TEST_F(AtomicFileTest, ReplacedFileKeepsItsPermissionsAndNewOnesFollowTheUmask) {
  const std::string target = write_file("kept.json", "{}");
  ::chmod(target.c_str(), 0640);
  AtomicFile replaced(target);
  replaced.commit();
  struct stat info {};
  ASSERT_EQ(::stat(target.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0640u);
  const mode_t mask = ::umask(022);
  ::umask(mask);
  AtomicFile fresh(path("fresh.json"));
  fresh.commit();
  ASSERT_EQ(::stat(path("fresh.json").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0666u & ~mask);
}

TEST_F(AtomicFileTest, DevicesAreWrittenDirectly) {
  AtomicFile file("/dev/null");
  EXPECT_EQ(file.written_path(), "/dev/null");
  write_all(file.descriptor(), "discarded");
  file.commit();
  struct stat info {};
  ASSERT_EQ(::stat("/dev/null", &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode));
}

TEST_F(AtomicFileTest, UnwritableDirectoryNamesTheTarget) {
  const std::string target = path("missing/out.bin");
  EXPECT_TRUE(throws_error([&] { AtomicFile file(target); }, ErrorKind::BadInput, {target, "cannot create"}));
}

// A self-join's pairs, from a file as the command line reads them back, with lists big enough that
// writing them takes a good fraction of a second.
PairBlocks many_pairs(std::size_t n, std::size_t count, std::uint64_t seed) {
  auto pairs = std::make_shared<std::vector<Pair>>(count);
  std::mt19937_64 random(seed);
  for (Pair& pair : *pairs) {
    const auto i = std::uint32_t(random() % (n - 1));
    pair = {i, i + 1 + std::uint32_t(random() % (n - 1 - i))};
  }
  return [pairs](const std::function<void(std::span<const Pair>)>& visit) {
    for (std::size_t first = 0; first < pairs->size(); first += std::size_t(1) << 20)
      visit(std::span<const Pair>(*pairs).subspan(first, std::min(std::size_t(1) << 20, pairs->size() - first)));
  };
}

TEST_F(AtomicFileTest, NeighborsCsrCancelsPromptlyAndKeepsTheOlderFiles) {
  SCOPED_TRACE(test_seed());
  const std::size_t n = 200000;
  const PairBlocks pairs = many_pairs(n, 20'000'000, test_seed());
  const std::string prefix = path("nb");
  write_file("nb.offsets.npy", "old offsets");
  write_file("nb.ids.npy", "old ids");
  // Cancelled at several moments: during the counting pass, the placing, the sorting and the writing.
  for (const int after_ms : {5, 60, 200, 400}) {
    SCOPED_TRACE(after_ms);
    RunControl control;
    using Clock = std::chrono::steady_clock;
    Clock::time_point requested;
    std::thread canceller([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(after_ms));
      requested = Clock::now();
      control.request_cancel();
    });
    bool cancelled = false;
    try {
      write_neighbors_csr(prefix, pairs, n, true, &control, 48 << 20);
    } catch (const Error& error) {
      cancelled = error.kind() == ErrorKind::Cancelled;
    }
    const auto returned = Clock::now();
    canceller.join();
    if (!cancelled) {  // finished before the cancel: a complete pair of files
      EXPECT_GT(std::filesystem::file_size(prefix + ".ids.npy"), 80'000'000u);
      continue;
    }
    const double latency_ms = std::chrono::duration<double, std::milli>(returned - requested).count();
    EXPECT_LT(latency_ms, 100.0) << "cancelled " << after_ms << " ms after the start";
    EXPECT_EQ(read_whole_file(prefix + ".offsets.npy"), "old offsets");
    EXPECT_EQ(read_whole_file(prefix + ".ids.npy"), "old ids");
    EXPECT_EQ(entries(), (std::vector<std::string>{"nb.ids.npy", "nb.offsets.npy"}));
  }
}

// The fields of /proc/PID/status by name, each value without its leading blanks.
std::map<std::string, std::string> process_status(const std::filesystem::path& process) {
  std::map<std::string, std::string> fields;
  std::ifstream status(process / "status");
  for (std::string line; std::getline(status, line);) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto value = line.find_first_not_of(" \t", colon + 1);
    fields[line.substr(0, colon)] = value == std::string::npos ? "" : line.substr(value);
  }
  return fields;
}

// The blocks of a large discarded temporary stay with a helper process (cat) until the run has ended.
// The programs block the cancel signals in every thread, and the helper must not inherit that: 0 where
// it started with no signal blocked. For a child process of the test (the deferral is for good).
int helper_blocked_signals(const std::string& target) {
  sigset_t cancel;
  sigemptyset(&cancel);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&cancel, signal);
  pthread_sigmask(SIG_BLOCK, &cancel, nullptr);
  defer_discarded_space_until_exit();
  AtomicFile file(target);
  if (::ftruncate(file.descriptor(), off_t(64) << 20) != 0) return 10;  // sparse, over the deferral's bound
  file.discard();
  release_discarded_space_after_exit();
  // posix_spawn returns once the child's exec has begun, but the kernel names the process "cat" a
  // little later in the exec: under load the first scans can still see the parent's name.
  for (int scan = 0; scan < 500; ++scan) {
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
      std::map<std::string, std::string> status = process_status(entry.path());
      if (status["Name"] == "cat" && status["PPid"] == std::to_string(::getpid()))
        return status["SigBlk"].find_first_not_of('0') == std::string::npos ? 0 : 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return 2;  // no helper found in 5 s
}

TEST_F(AtomicFileTest, TheHelperHoldingDiscardedSpaceStartsWithNoSignalBlocked) {
  EXPECT_EXIT(std::exit(helper_blocked_signals(path("big.bin"))), ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace simjoin::testing
