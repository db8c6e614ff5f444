// Regression files (tests/io/hostile/): every file of refused/ is refused with Error(BadInput) naming
// it, and every file of valid/ loads exactly the points it holds.
#include <filesystem>

#include "core/io/load_points.hpp"
#include "tests/io/temp_dir.hpp"

namespace simjoin::testing {
namespace {

const std::filesystem::path kHostile = SIMJOIN_HOSTILE_DIR;

TEST(HostileFiles, EveryRefusedFileIsBadInputNamingIt) {
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kHostile / "refused")) {
    const std::string file = entry.path().string();
    EXPECT_TRUE(throws_error([&] { load_points(file); }, ErrorKind::BadInput, {file})) << file;
    ++files;
  }
  EXPECT_GE(files, 26u);
}

TEST(HostileFiles, FacesBeforeVerticesLoadExactly) {
  for (const char* name : {"face-before-vertex.ply", "face-before-vertex-binary.ply"}) {
    const PointSet points = load_points((kHostile / "valid" / name).string());
    EXPECT_EQ(points.values(), (std::vector<double>{0, 0, 0, 1, 0.5, 0, -2.25, 1000, 7})) << name;
  }
}

}  // namespace
}  // namespace simjoin::testing
