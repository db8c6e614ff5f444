// The LAS reader, on LAS files the tests write: versions 1.2 to 1.4, point formats 0 to 10, records
// with extra bytes, UTM-sized offsets applied exactly in float64, and every count, offset and length
// checked against the file.
#include <array>
#include <cstdint>
#include <random>

#include "core/io/las_reader.hpp"
#include "core/io/load_points.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/io/binary_bytes.hpp"
#include "tests/io/reader_test.hpp"

namespace simjoin::testing {
namespace {

constexpr std::uint16_t kMinRecordLength[] = {20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67};

struct LasSpec {
  int minor = 2;
  int point_format = 0;
  std::uint16_t extra_bytes = 0;  // after each record's standard fields
  std::string vlr;                // bytes between the header and the points
  std::array<double, 3> scale = {0.001, 0.001, 0.001};
  std::array<double, 3> offset = {500000, 4000000, 0};
  bool legacy_count = true;  // LAS 1.4: also fill the legacy 32-bit count
};

// A LAS file holding `stored` (X, Y, Z int32 triples) as its point records.
std::string las_file(const LasSpec& spec, const std::vector<std::array<std::int32_t, 3>>& stored) {
  const std::uint16_t header_size = spec.minor <= 2 ? 227 : spec.minor == 3 ? 235 : 375;
  const std::uint16_t record_length = std::uint16_t(kMinRecordLength[spec.point_format] + spec.extra_bytes);
  std::string header(header_size, '\0');
  const auto put = [&](std::size_t at, const std::string& bytes) { header.replace(at, bytes.size(), bytes); };
  put(0, "LASF");
  header[24] = 1;
  header[25] = char(spec.minor);
  put(94, bytes_of(header_size));
  put(96, bytes_of(std::uint32_t(header_size + spec.vlr.size())));
  put(104, bytes_of(std::uint8_t(spec.point_format)));
  put(105, bytes_of(record_length));
  if (spec.legacy_count) put(107, bytes_of(std::uint32_t(stored.size())));
  for (int axis = 0; axis < 3; ++axis) {
    put(131 + 8 * std::size_t(axis), bytes_of(spec.scale[std::size_t(axis)]));
    put(155 + 8 * std::size_t(axis), bytes_of(spec.offset[std::size_t(axis)]));
  }
  if (spec.minor == 4) put(247, bytes_of(std::uint64_t(stored.size())));
  std::string records;
  for (const auto& xyz : stored) {
    for (std::int32_t v : xyz) records += bytes_of(v);
    records += std::string(record_length - 12, '\x5a');
  }
  return header + spec.vlr + records;
}

std::vector<std::array<std::int32_t, 3>> random_stored(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::int32_t> value(INT32_MIN, INT32_MAX);
  std::vector<std::array<std::int32_t, 3>> stored(n);
  for (auto& xyz : stored) xyz = {value(random), value(random), value(random)};
  return stored;
}

using LasReaderTest = ReaderTest;

TEST_F(LasReaderTest, EveryVersionAndPointFormatAppliesScaleAndOffsetExactly) {
  SCOPED_TRACE(test_seed());
  const auto stored = random_stored(200, test_seed());
  for (int minor = 2; minor <= 4; ++minor) {
    for (int format = 0; format <= 10; ++format) {
      if (format >= 6 && minor < 4) continue;  // formats 6 to 10 came with LAS 1.4
      LasSpec spec;
      spec.minor = minor;
      spec.point_format = format;
      spec.extra_bytes = std::uint16_t(format % 3 * 4);
      spec.vlr = minor == 3 ? std::string(54 + 8, 'v') : "";
      spec.legacy_count = format < 6;
      const std::string file = write_file("f.las", las_file(spec, stored));
      const PointSet points = load_points(file);
      ASSERT_EQ(points.size(), stored.size()) << "1." << minor << " format " << format;
      for (std::size_t i = 0; i < stored.size(); ++i)
        for (std::size_t k = 0; k < 3; ++k)
          ASSERT_EQ(points.point(i)[k], double(stored[i][k]) * spec.scale[k] + spec.offset[k])
              << "1." << minor << " format " << format << " point " << i;
    }
  }
}

TEST_F(LasReaderTest, UtmCoordinatesAreTheNearestDoubles) {
  // 500000.123 m east, 4000000.456 m north, 12.789 m up at millimetre resolution.
  LasSpec spec;
  const PointSet points = load_points(write_file("utm.las", las_file(spec, {{123, 456, 12789}, {-1, 0, 1}})));
  EXPECT_EQ(points.values(), (std::vector<double>{500000.123, 4000000.456, 12.789, 499999.999, 4000000, 0.001}));
  EXPECT_EQ(points.column_names, (std::vector<std::string>{"x", "y", "z"}));
}

TEST_F(LasReaderTest, RefusesLazNamingTheTools) {
  const std::string las = las_file({}, {{1, 2, 3}});
  EXPECT_TRUE(rejects("points.laz", las, {"LAZ", "laszip", "pdal translate"}));
  std::string compressed = las;
  compressed[104] = char(0x80 | 3);
  EXPECT_TRUE(rejects("compressed.las", compressed, {"LAZ", "laszip"}));
}

TEST_F(LasReaderTest, RefusesCountsOffsetsAndLengthsBeyondTheFile) {
  const std::vector<std::array<std::int32_t, 3>> two = {{1, 2, 3}, {4, 5, 6}};
  const std::string las = las_file({}, two);
  EXPECT_TRUE(rejects("magic.las", "LASX" + las.substr(4), {"not a LAS file"}));
  EXPECT_TRUE(rejects("tiny.las", las.substr(0, 100), {"not a LAS file"}));
  EXPECT_TRUE(rejects("cut.las", las.substr(0, las.size() - 1), {"truncated LAS file", "2 points of 20 bytes"}));
  std::string bad = las;
  bad.replace(107, 4, bytes_of<std::uint32_t>(0xffffffff));
  EXPECT_TRUE(rejects("count.las", bad, {"truncated LAS file", "4294967295 points"}));
  bad = las;
  bad.replace(96, 4, bytes_of<std::uint32_t>(1u << 31));
  EXPECT_TRUE(rejects("offset.las", bad, {"offset to point data 2147483648"}));
  bad = las;
  bad.replace(105, 2, bytes_of<std::uint16_t>(12));
  EXPECT_TRUE(rejects("record.las", bad, {"record length 12", "format 0's 20 bytes"}));
  bad = las;
  bad[104] = 11;
  EXPECT_TRUE(rejects("format.las", bad, {"point data format 11"}));
  bad = las;
  bad[25] = 5;
  EXPECT_TRUE(rejects("version.las", bad, {"LAS version 1.5"}));
  bad = las;
  bad.replace(131, 8, bytes_of(0.0));
  EXPECT_TRUE(rejects("scale.las", bad, {"scale and offset of x"}));
  EXPECT_TRUE(rejects("empty.las", las_file({}, {}), {"contains no points"}));

  LasSpec v14;
  v14.minor = 4;
  std::string mismatch = las_file(v14, two);
  mismatch.replace(107, 4, bytes_of<std::uint32_t>(3));
  EXPECT_TRUE(rejects("mismatch.las", mismatch, {"legacy point count 3 differs from its point count 2"}));
  std::string huge = las_file(v14, two);
  huge.replace(247, 8, bytes_of<std::uint64_t>(1ull << 62));
  huge.replace(107, 4, bytes_of<std::uint32_t>(0));
  EXPECT_TRUE(rejects("huge.las", huge, {"truncated LAS file"}));
}

// The point count promises the points that follow: fewer leave bytes over, which only the extended
// records a LAS 1.3 or 1.4 header points to may fill.
TEST_F(LasReaderTest, RefusesPointsBeyondTheCount) {
  const std::vector<std::array<std::int32_t, 3>> three = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  std::string fewer = las_file({}, three);
  fewer.replace(107, 4, bytes_of<std::uint32_t>(2));
  EXPECT_TRUE(rejects("fewer.las", fewer, {"20 bytes follow the 2 points", "does not match"}));
  LasSpec v14;
  v14.minor = 4;
  std::string with_evlr = las_file(v14, three) + std::string(60, 'E');
  const std::uint64_t evlr_start = with_evlr.size() - 60;
  with_evlr.replace(235, 8, bytes_of(evlr_start));
  EXPECT_EQ(load_points(write_file("evlr.las", with_evlr)).size(), 3u);
  with_evlr.replace(247, 8, bytes_of<std::uint64_t>(2));
  with_evlr.replace(107, 4, bytes_of<std::uint32_t>(2));
  EXPECT_TRUE(rejects("evlr-fewer.las", with_evlr, {"bytes follow the 2 points"}));
}

}  // namespace
}  // namespace simjoin::testing
