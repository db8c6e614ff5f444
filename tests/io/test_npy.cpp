#include <algorithm>
#include <cstring>
#include <limits>

#include "core/io/npy.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/io/temp_dir.hpp"

namespace simjoin::testing {
namespace {

// An NPY file built by hand: `dict` is the header text, `version` 1, 2 or 3.
std::string npy_file(const std::string& dict, const std::string& data, int version = 1) {
  std::string header = dict;
  const std::size_t prefix = version == 1 ? 10 : 12;
  while ((prefix + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string file = "\x93NUMPY";
  file += char(version);
  file += '\0';
  const std::uint32_t len = std::uint32_t(header.size());
  file.append(reinterpret_cast<const char*>(&len), version == 1 ? 2 : 4);
  return file + header + data;
}

std::string dict_for(const std::string& descr, const std::string& shape, bool fortran = false) {
  return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }";
}

template <typename T>
std::string raw(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

class NpyTest : public TempDirTest {
 protected:
  PointSet load(const std::string& content) { return read_npy(write_file("a.npy", content)); }
  ::testing::AssertionResult rejects(const std::string& content, std::vector<std::string> parts) {
    const std::string file = write_file("bad.npy", content);
    parts.push_back(file);
    return throws_error([&] { read_npy(file); }, ErrorKind::BadInput, parts);
  }
};

TEST_F(NpyTest, WriteThenReadGivesTheSamePoints) {
  SCOPED_TRACE(test_seed());
  const PointSet points =
      random_points(Distribution::Clusters, 1000 + test_seed() % 500, 1 + test_seed() % 9, test_seed(), -100, 100);
  const std::string file = path("p.npy");
  write_npy(file, points);
  const PointSet read = read_npy(file);
  EXPECT_EQ(read.size(), points.size());
  EXPECT_EQ(read.dims(), points.dims());
  EXPECT_EQ(read.values(), points.values());
  EXPECT_EQ(read.source, file);
  EXPECT_TRUE(read.warnings.empty());
}

TEST_F(NpyTest, FortranOrderIsTransposedOnRead) {
  // The 3 x 2 array [[1, 2], [3, 4], [5, 6]] stored column by column.
  const PointSet read = load(npy_file(dict_for("<f4", "(3, 2)", true), raw(std::vector<float>{1, 3, 5, 2, 4, 6})));
  EXPECT_EQ(read.size(), 3u);
  EXPECT_EQ(read.values(), (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

TEST_F(NpyTest, OneDimensionalIsNByOne) {
  const PointSet read = load(npy_file(dict_for("<i4", "(4,)"), raw(std::vector<std::int32_t>{-7, 0, 3, 9})));
  EXPECT_EQ(read.dims(), 1u);
  EXPECT_EQ(read.values(), (std::vector<double>{-7, 0, 3, 9}));
}

TEST_F(NpyTest, ReadsVersionsTwoAndThree) {
  for (int version : {2, 3}) {
    const PointSet read =
        load(npy_file(dict_for("<i8", "(2, 2)"), raw(std::vector<std::int64_t>{1, -2, 3, 4}), version));
    EXPECT_EQ(read.values(), (std::vector<double>{1, -2, 3, 4})) << "version " << version;
  }
}

TEST_F(NpyTest, Float64KeepsEveryValue) {
  SCOPED_TRACE(test_seed());
  std::vector<double> values = random_points(Distribution::Uniform, 100, 3, test_seed(), 0, 1).values();
  values[5] = 0.1;
  values[17] = 1.0 + 1e-12;
  values[40] = 4500000.123;  // a UTM northing in millimetres: float32 would round it to 4500000.0
  values[41] = 1e300;
  const PointSet read = load(npy_file(dict_for("<f8", "(100, 3)"), raw(values)));
  EXPECT_EQ(read.values(), values);
  EXPECT_EQ(read.source_type, "float64");
  EXPECT_TRUE(read.warnings.empty());
}

TEST_F(NpyTest, Int64WarnsWhenBeyondFloat64Precision) {
  const std::int64_t beyond = (std::int64_t(1) << 53) + 1;
  const PointSet read =
      load(npy_file(dict_for("<i8", "(3,)"),
                    raw(std::vector<std::int64_t>{16777217, beyond, std::numeric_limits<std::int64_t>::max()})));
  EXPECT_EQ(read.point(0)[0], 16777217.0);
  ASSERT_EQ(read.warnings.size(), 1u);
  EXPECT_NE(read.warnings[0].find("2 of 3 int64 values"), std::string::npos) << read.warnings[0];
}

TEST_F(NpyTest, WrittenValuesReadBackUnchanged) {
  PointSet points(2, 2, {0.5, 1.0, 4500000.123, -3.0});
  write_npy(path("wide.npy"), points);
  EXPECT_EQ(read_npy(path("wide.npy")).values(), points.values());
  PointSet narrow(1, 2, {0.5, 2.0});
  write_npy(path("narrow.npy"), narrow);
  const PointSet back = read_npy(path("narrow.npy"));
  EXPECT_EQ(back.values(), narrow.values());
  EXPECT_EQ(back.source_type, "float32");
}

TEST_F(NpyTest, BadMagicOrVersion) {
  EXPECT_TRUE(rejects("PK\x03\x04 this is a zip file", {"not an NPY file", "bad magic"}));
  EXPECT_TRUE(rejects("", {"bad magic"}));
  std::string v4 = npy_file(dict_for("<f4", "(1, 1)"), raw(std::vector<float>{1}));
  v4[6] = 4;
  EXPECT_TRUE(rejects(v4, {"unsupported NPY format version 4.0"}));
}

TEST_F(NpyTest, MalformedHeader) {
  const std::string data = raw(std::vector<float>{1, 2});
  EXPECT_TRUE(
      rejects(npy_file("{'descr': '<f4', 'fortran_order': False}", data), {"malformed NPY header", "no 'shape'"}));
  EXPECT_TRUE(rejects(npy_file("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,)}", data),
                      {"malformed NPY header", "True or False"}));
  EXPECT_TRUE(rejects(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, x)}", data),
                      {"malformed NPY header", "'shape'"}));
  EXPECT_TRUE(rejects(npy_file("not a dict", data), {"malformed NPY header", "expected '{'"}));
  std::string short_header = npy_file(dict_for("<f4", "(2,)"), "");
  short_header.resize(40);
  EXPECT_TRUE(rejects(short_header, {"truncated NPY header"}));
}

TEST_F(NpyTest, UnsupportedDtype) {
  EXPECT_TRUE(rejects(npy_file(dict_for("<c16", "(1,)"), std::string(16, '\0')), {"unsupported dtype '<c16'"}));
  EXPECT_TRUE(rejects(npy_file(dict_for(">f2", "(1,)"), std::string(2, '\0')), {"'>f2'", "either byte order"}));
  EXPECT_TRUE(
      rejects(npy_file("{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (1,), }", std::string(4, '\0')),
              {"unsupported dtype", "structured"}));
}

TEST_F(NpyTest, TruncatedOrOversizedData) {
  const std::string dict = dict_for("<f4", "(3, 2)");
  EXPECT_TRUE(
      rejects(npy_file(dict, std::string(20, '\0')), {"truncated", "expected 24 bytes of data", "file has 20"}));
  EXPECT_TRUE(rejects(npy_file(dict, std::string(28, '\0')), {"expected 24 bytes of data", "file has 28"}));
}

TEST_F(NpyTest, BadShapes) {
  EXPECT_TRUE(rejects(npy_file(dict_for("<f4", "(2, 2, 2)"), std::string(32, '\0')), {"(2, 2, 2)", "3 dimensions"}));
  EXPECT_TRUE(rejects(npy_file(dict_for("<f4", "()"), std::string(4, '\0')), {"0 dimensions"}));
  EXPECT_TRUE(rejects(npy_file(dict_for("<f4", "(0, 3)"), ""), {"(0, 3)", "zero points"}));
  EXPECT_TRUE(rejects(npy_file(dict_for("<f4", "(3, 0)"), ""), {"(3, 0)", "d = 0"}));
}

TEST_F(NpyTest, NonFiniteValues) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(rejects(npy_file(dict_for("<f4", "(2, 2)"), raw(std::vector<float>{1, 2, 3, nan})),
                      {"point 1, dimension 1 is NaN"}));
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(rejects(npy_file(dict_for("<f8", "(2, 2)", true), raw(std::vector<double>{1, inf, 3, 4})),
                      {"point 1, dimension 0 is infinite"}));
}

// Big-endian arrays, as NumPy writes them with dtype '>f8', read as the same values.
TEST_F(NpyTest, BigEndianArraysAreConverted) {
  SCOPED_TRACE(test_seed());
  const PointSet points = random_points(Distribution::Uniform, 30, 3, test_seed(), -1e6, 1e6);
  const auto swapped = [](std::string bytes, std::size_t size) {
    for (std::size_t at = 0; at < bytes.size(); at += size) std::reverse(bytes.begin() + at, bytes.begin() + at + size);
    return bytes;
  };
  EXPECT_EQ(load(npy_file(dict_for(">f8", "(30, 3)"), swapped(raw(points.values()), 8))).values(), points.values());
  const std::vector<double> values = points.values();
  const std::vector<float> narrow(values.begin(), values.end());
  EXPECT_EQ(load(npy_file(dict_for(">f4", "(30, 3)", true), swapped(raw(narrow), 4))).size(), 30u);
  const PointSet ints =
      load(npy_file(dict_for(">i4", "(2,)"), swapped(raw(std::vector<std::int32_t>{-7, 1 << 20}), 4)));
  EXPECT_EQ(ints.values(), (std::vector<double>{-7, 1 << 20}));
}

// As NumPy: versions other than 1.0, 2.0 and 3.0, and anything after the header's dict, are refused.
TEST_F(NpyTest, VersionsAndTrailingHeaderTextAreRefusedAsNumPyDoes) {
  const std::string data = raw(std::vector<float>{1, 2});
  for (const char minor : {'\x10', '\x42'}) {
    std::string file = npy_file(dict_for("<f4", "(2,)"), data);
    file[7] = minor;
    EXPECT_TRUE(rejects(file, {"unsupported NPY format version 1." + std::to_string(int(minor))}));
  }
  EXPECT_TRUE(rejects(npy_file(dict_for("<f4", "(2,)") + " garbage", data), {"characters after the dict"}));
  EXPECT_TRUE(rejects(npy_file(dict_for("<f4", "(2,)") + "}", data), {"characters after the dict"}));
  EXPECT_EQ(load(npy_file(dict_for("<f4", "(2,)"), data, 3)).size(), 2u);
}

}  // namespace
}  // namespace simjoin::testing
