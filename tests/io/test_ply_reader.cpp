// The PLY reader: ASCII and both binary byte orders, elements in any order, extra vertex properties,
// and every malformed header, count and value refused with the file, line or element, and property.
#include <cmath>
#include <cstdint>
#include <random>

#include "core/io/load_points.hpp"
#include "core/io/ply_reader.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/io/binary_bytes.hpp"
#include "tests/io/reader_test.hpp"

namespace simjoin::testing {
namespace {

using PlyReaderTest = ReaderTest;

const std::string kXyzHeader =
    "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nend_header\n";

TEST_F(PlyReaderTest, ReadsAsciiValuesAsTheirTypeStoresThem) {
  const std::string file = write_file("hand.ply",
                                      "ply\r\nformat ascii 1.0\r\ncomment by hand\r\nelement vertex 3\r\n"
                                      "property float x\r\nproperty float y\r\nproperty double z\r\n"
                                      "end_header\r\n0 1 2\r\n-1.5 2.5 1e3\r\n\r\n0.1 8 0.1\r\n");
  const PointSet points = load_points(file);
  // x and y are float32: 0.1 becomes the float32 nearest 0.1, as in a binary file; z is a double.
  EXPECT_EQ(points.values(), (std::vector<double>{0, 1, 2, -1.5, 2.5, 1000, double(0.1f), 8, 0.1}));
  EXPECT_EQ(points.column_names, (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(points.source, file);
}

TEST_F(PlyReaderTest, FaceBeforeVertexAndListsInEveryFormat) {
  const std::string ascii =
      "ply\nformat ascii 1.0\nelement face 2\nproperty list uchar int vertex_indices\n"
      "element vertex 2\nproperty list ushort float tags\nproperty float x\nproperty float y\n"
      "property float z\nproperty uchar red\nelement edge 1\nproperty int a\nend_header\n"
      "3 0 1 2\n0\n2 9 9 1 2 3 255\n0 4 5 6 0\n7\n";
  const PointSet points = load_points(write_file("face-first.ply", ascii));
  EXPECT_EQ(points.values(), (std::vector<double>{1, 2, 3, 255, 4, 5, 6, 0}));
  EXPECT_EQ(points.column_names, (std::vector<std::string>{"x", "y", "z", "red"}));
  EXPECT_EQ(points.source_type, "float32/uint8");
}

// A binary PLY of random float64 coordinates, a float32 and an int16 property, a list inside the
// vertex element and faces before and after it, in the byte order asked for.
std::string binary_ply(const PointSet& points, bool big_endian, std::mt19937_64& random) {
  std::string header = std::string("ply\nformat ") + (big_endian ? "binary_big_endian" : "binary_little_endian") +
                       " 1.0\nelement face 1\nproperty list int uint corners\nelement vertex " +
                       std::to_string(points.size()) +
                       "\nproperty double x\nproperty list uchar double tag\nproperty double y\n"
                       "property double z\nproperty float w\nproperty int16 t\nelement face2 2\n"
                       "property list uint8 int32 v\nend_header\n";
  std::string body = bytes_of<std::int32_t>(2, big_endian) + bytes_of<std::uint32_t>(7, big_endian) +
                     bytes_of<std::uint32_t>(8, big_endian);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double* p = points.point(i);
    const std::uint8_t tags = std::uint8_t(random() % 3);
    body += bytes_of(p[0], big_endian) + bytes_of(tags, big_endian);
    for (std::uint8_t k = 0; k < tags; ++k) body += bytes_of(double(k), big_endian);
    body += bytes_of(p[1], big_endian) + bytes_of(p[2], big_endian) + bytes_of(float(p[3]), big_endian) +
            bytes_of(std::int16_t(p[4]), big_endian);
  }
  for (int f = 0; f < 2; ++f) body += bytes_of<std::uint8_t>(1) + bytes_of<std::int32_t>(f, big_endian);
  return header + body;
}

TEST_F(PlyReaderTest, BinaryInBothByteOrdersKeepsEveryValueExactly) {
  SCOPED_TRACE(test_seed());
  std::mt19937_64 random(test_seed());
  PointSet points = random_points(Distribution::Uniform, 300, 5, test_seed(), -1e6, 1e6);
  for (std::size_t i = 0; i < points.size(); ++i) {
    points.point(i)[3] = double(float(points.point(i)[3]));
    points.point(i)[4] = std::floor(points.point(i)[4] / 100);  // fits int16
  }
  for (const bool big_endian : {false, true}) {
    const std::string file = write_file(big_endian ? "be.ply" : "le.ply", binary_ply(points, big_endian, random));
    const PointSet read = load_points(file);
    EXPECT_EQ(read.values(), points.values()) << file;
    EXPECT_EQ(read.column_names, (std::vector<std::string>{"x", "y", "z", "w", "t"}));
  }
}

TEST_F(PlyReaderTest, RefusesMalformedHeaders) {
  EXPECT_TRUE(rejects("magic.ply", "plx\n", {"not a PLY file"}));
  EXPECT_TRUE(rejects("noend.ply", "ply\nformat ascii 1.0\nelement vertex 1\n", {"no end_header"}));
  EXPECT_TRUE(rejects("format.ply", "ply\nformat binary 1.0\nend_header\n", {"line 2", "unknown format"}));
  EXPECT_TRUE(rejects("count.ply", "ply\nformat ascii 1.0\nelement vertex 3.5\nend_header\n", {"line 3", "'3.5'"}));
  EXPECT_TRUE(rejects("negative.ply", "ply\nformat ascii 1.0\nelement vertex -2\nend_header\n", {"line 3", "'-2'"}));
  EXPECT_TRUE(rejects("huge.ply", "ply\nformat ascii 1.0\nelement vertex 18446744073709551616\nend_header\n",
                      {"line 3", "below 2^64"}));
  EXPECT_TRUE(rejects("type.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float128 x\nend_header\n",
                      {"line 4", "unknown property type 'float128'"}));
  EXPECT_TRUE(rejects("listtype.ply", "ply\nformat ascii 1.0\nelement f 1\nproperty list float int v\nend_header\n",
                      {"line 4", "integer type"}));
  EXPECT_TRUE(rejects("orphan.ply", "ply\nformat ascii 1.0\nproperty float x\nend_header\n", {"before any element"}));
  EXPECT_TRUE(rejects("nox.ply",
                      "ply\nformat ascii 1.0\nelement vertex 1\nproperty float y\nproperty float z\n"
                      "end_header\n1 2\n",
                      {"no scalar property 'x'"}));
  EXPECT_TRUE(rejects("novertex.ply", "ply\nformat ascii 1.0\nelement face 0\nend_header\n", {"no vertex element"}));
  EXPECT_TRUE(rejects("empty.ply",
                      "ply\nformat ascii 1.0\nelement vertex 0\nproperty float x\nproperty float y\n"
                      "property float z\nend_header\n",
                      {"contains no points"}));
}

TEST_F(PlyReaderTest, RefusesBadAsciiValuesNamingLineElementAndProperty) {
  EXPECT_TRUE(rejects("short.ply", kXyzHeader + "1 2 3\n4 5\n",
                      {"line 9", "element 'vertex' 1 has 2 values; property 'z' is missing"}));
  EXPECT_TRUE(rejects("foo.ply", kXyzHeader + "1 2 3\nfoo bar baz\n",
                      {"line 9", "element 'vertex' 1, property 'x': 'foo' is not a number"}));
  EXPECT_TRUE(rejects("5x.ply", kXyzHeader + "1 2 3\n4 5x 6\n", {"line 9", "property 'y': '5x' is not a number"}));
  EXPECT_TRUE(rejects("long.ply", kXyzHeader + "1 2 3 4\n4 5 6\n", {"line 8", "more than its properties take"}));
  EXPECT_TRUE(rejects("range.ply", kXyzHeader + "1 2 3\n4 5 1e999\n", {"line 9", "outside the float64 range"}));
  EXPECT_TRUE(rejects("float.ply", kXyzHeader + "1 2 3\n4 5 1e39\n",
                      {"line 9", "'1e39' does not fit the declared type float32"}));
  const std::string colour =
      "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n"
      "property float z\nproperty uchar red\nend_header\n";
  EXPECT_TRUE(rejects("uchar.ply", colour + "1 2 3 256\n",
                      {"line 9", "property 'red': '256' does not fit the declared type uint8"}));
  EXPECT_TRUE(rejects("half.ply", colour + "1 2 3 2.5\n", {"'2.5' does not fit the declared type uint8"}));
  EXPECT_TRUE(rejects("truncated.ply", kXyzHeader + "1 2 3\n", {"the file ends before element 'vertex' 1 of 2"}));
  EXPECT_TRUE(rejects("nan.ply", kXyzHeader + "1 2 3\n4 nan 6\n", {"point 1, dimension 1 is NaN"}));
  const std::string faces =
      "ply\nformat ascii 1.0\nelement face 1\nproperty list uchar int v\nelement vertex 1\n"
      "property float x\nproperty float y\nproperty float z\nend_header\n";
  EXPECT_TRUE(rejects("list.ply", faces + "-1 2\n1 2 3\n", {"line 10", "element 'face' 0", "list length '-1'"}));
  EXPECT_TRUE(rejects("listlong.ply", faces + "9 1 2\n1 2 3\n", {"line 10", "a list of 9 items"}));
}

TEST_F(PlyReaderTest, RefusesBinaryCountsBeyondTheFile) {
  const std::string header = "ply\nformat binary_little_endian 1.0\nelement vertex ";
  const std::string xyz = "\nproperty float x\nproperty float y\nproperty float z\nend_header\n";
  // 4611686018427387905 x 12 bytes wraps to 12 in 64 bits.
  EXPECT_TRUE(rejects("wrap.ply", header + "4611686018427387905" + xyz + std::string(12, '\0'),
                      {"truncated PLY file", "4611686018427387905 instances"}));
  EXPECT_TRUE(rejects("cut.ply", header + "2" + xyz + std::string(20, '\0'), {"truncated PLY file"}));
  const std::string faces =
      "ply\nformat binary_big_endian 1.0\nelement face 1\nproperty list int int v\n"
      "element vertex 1" +
      xyz;
  EXPECT_TRUE(rejects("negative-list.ply", faces + bytes_of<std::int32_t>(-5, true) + std::string(12, '\0'),
                      {"element 'face' 0, property 'v'", "a list of -5 items"}));
  EXPECT_TRUE(rejects("long-list.ply", faces + bytes_of<std::int32_t>(1 << 30, true) + std::string(12, '\0'),
                      {"a list of 1073741824 items does not fit"}));
}

TEST_F(PlyReaderTest, HonoursCancelBetweenAndWithinElements) {
  const std::string file = write_file("cancel.ply",
                                      "ply\nformat ascii 1.0\nelement face 1\nproperty list uchar int v\n"
                                      "element vertex 1\nproperty float x\nproperty float y\n"
                                      "property float z\nend_header\n3 0 1 2\n1 2 3\n");
  RunControl control([&](double fraction, const std::string&) {
    if (fraction > 0) control.request_cancel();  // once the faces are read
  });
  EXPECT_TRUE(throws_error([&] { load_points(file, {}, &control); }, ErrorKind::Cancelled, {}));
}

// Element counts promise the data: a body longer than the elements they declare is refused.
TEST_F(PlyReaderTest, RefusesDataBeyondTheDeclaredElements) {
  EXPECT_TRUE(rejects("extra.ply", kXyzHeader + "1 2 3\n4 5 6\n7 8 9\n", {"line 10", "counts do not match"}));
  EXPECT_EQ(load_points(write_file("blank.ply", kXyzHeader + "1 2 3\n4 5 6\n\n  \n")).size(), 2u);
  const std::string binary =
      "ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\n"
      "property float y\nproperty float z\nend_header\n";
  const std::string point = bytes_of(1.0f) + bytes_of(2.0f) + bytes_of(3.0f);
  EXPECT_EQ(load_points(write_file("one.ply", binary + point + "\n")).size(), 1u);
  EXPECT_TRUE(rejects("two.ply", binary + point + point, {"12 bytes follow", "counts do not match"}));
}

TEST_F(PlyReaderTest, TooManyDimensionsNamesTheFile) {
  std::string header =
      "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\n";
  for (int k = 0; k < 1030; ++k) header += "property uchar p" + std::to_string(k) + "\n";
  EXPECT_TRUE(rejects("wide.ply", header + "end_header\n", {"1033 scalar properties", "1024"}));
}

}  // namespace
}  // namespace simjoin::testing
