#include <sys/stat.h>

#include <chrono>
#include <filesystem>

#include "core/io/load_points.hpp"
#include "core/io/npy.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/io/temp_dir.hpp"

namespace simjoin::testing {
namespace {

class LoadPointsTest : public TempDirTest {};

TEST_F(LoadPointsTest, ChoosesTheReaderByExtension) {
  for (const char* name : {"a.csv", "a.tsv", "a.txt", "a.dat", "a.xyz", "A.CSV"}) {
    const std::string file = write_file(name, "1 2\n3 4\n");
    const PointSet points = load_points(file);
    EXPECT_EQ(points.values(), (std::vector<double>{1, 2, 3, 4})) << name;
    EXPECT_EQ(points.source, file);
  }
  SCOPED_TRACE(test_seed());
  const PointSet points = random_points(Distribution::Uniform, 20, 5, test_seed());
  const std::string file = path("p.npy");
  write_npy(file, points);
  EXPECT_EQ(load_points(file).values(), points.values());
}

TEST_F(LoadPointsTest, NamesTheLoadingPhaseAndHonoursCancel) {
  const std::string file = write_file("named.npy", "");
  write_npy(file, PointSet(4, 2));
  std::vector<std::string> phases;
  RunControl control([&](double, const std::string& phase) { phases.push_back(phase); });
  load_points(file, {}, &control);
  ASSERT_FALSE(phases.empty());
  EXPECT_EQ(phases.front(), "loading named.npy");
  EXPECT_EQ(control.progress(), 1.0);

  RunControl cancelled;
  cancelled.request_cancel();
  EXPECT_TRUE(throws_error([&] { load_points(file, {}, &cancelled); }, ErrorKind::Cancelled, {}));
}

TEST_F(LoadPointsTest, PassesTextOptionsThrough) {
  LoadOptions options;
  options.text.columns = {"z"};
  const PointSet points = load_points(write_file("p.csv", "x,y,z\n1,2,3\n"), options);
  EXPECT_EQ(points.values(), (std::vector<double>{3}));
}

TEST_F(LoadPointsTest, UnknownExtensionListsTheSupportedOnes) {
  const std::string file = write_file("points.h5", "");
  EXPECT_TRUE(throws_error([&] { load_points(file); }, ErrorKind::BadInput,
                           {file, "'.h5'", ".csv .tsv .txt .dat .xyz .npy .ply .vtp .vtk .las .laz"}));
}

TEST_F(LoadPointsTest, MissingFileIsNamed) {
  for (const char* name : {"gone.csv", "gone.npy", "gone.ply", "gone.vtp", "gone.vtk", "gone.las"}) {
    const std::string file = path(name);
    EXPECT_TRUE(throws_error([&] { load_points(file); }, ErrorKind::BadInput, {file, "not found"}));
  }
}

TEST_F(LoadPointsTest, DirectoryIsNotAPointFile) {
  const std::string dir = path("folder.csv");
  std::filesystem::create_directories(dir);
  EXPECT_TRUE(throws_error([&] { load_points(dir); }, ErrorKind::BadInput, {dir, "directory"}));
}

// Only regular files are read: a FIFO would block the open until a writer came, a device such as
// /dev/zero never ends. Each reader refuses them at once, also behind a link.
TEST_F(LoadPointsTest, SpecialFilesAreRefusedAtOnce) {
  const std::string fifo = path("fifo.csv");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string zero = path("zero.npy");
  std::filesystem::create_symlink("/dev/zero", zero);
  const std::string null = path("null.ply");
  std::filesystem::create_symlink("/dev/null", null);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(throws_error([&] { load_points(fifo); }, ErrorKind::BadInput, {fifo, "a FIFO (named pipe)"}));
  EXPECT_TRUE(throws_error([&] { load_points(zero); }, ErrorKind::BadInput, {zero, "a character device"}));
  EXPECT_TRUE(throws_error([&] { load_points(null); }, ErrorKind::BadInput, {null, "a character device"}));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST(Samples, EveryBuiltInSampleLoads) {
  const std::string dir = SIMJOIN_SAMPLES_DIR;
  const std::pair<const char*, std::size_t> samples[] = {
      {"blobs2d.csv", 2}, {"uniform3d.npy", 3}, {"clusters8d.npy", 8}};
  for (const auto& [name, dims] : samples) {
    const PointSet points = load_points(dir + "/" + name);
    EXPECT_GE(points.size(), 2000u) << name;
    EXPECT_EQ(points.dims(), dims) << name;
    EXPECT_TRUE(points.warnings.empty()) << name;
  }
  EXPECT_EQ(load_points(dir + "/spiral3d.ply").size(), 2000u);
}

}  // namespace
}  // namespace simjoin::testing
