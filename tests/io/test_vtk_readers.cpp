// The VTK XML (.vtp) and legacy (.vtk) point readers on files the tests write byte by byte: every
// encoding, header type, byte order and compression, and the corrupt headers that crash or hang VTK's
// own readers, each refused with Error(BadInput) naming the file.
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>

#include "core/base/error.hpp"
#include "core/base/run_control.hpp"
#include "core/io/load_points.hpp"
#include "core/io/vtk_xml_data.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/io/binary_bytes.hpp"
#include "tests/io/reader_test.hpp"

namespace simjoin::testing {
namespace {

using VtkReadersTest = ReaderTest;

std::string base64(const std::string& bytes) {
  const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    unsigned bits = 0;
    for (std::size_t k = 0; k < 3; ++k) bits = bits << 8 | (i + k < bytes.size() ? std::uint8_t(bytes[i + k]) : 0u);
    const std::size_t chars = std::min<std::size_t>(4, bytes.size() - i + 1);
    for (std::size_t k = 0; k < 4; ++k) out += k < chars ? alphabet[(bits >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

std::string float64_bytes(const PointSet& points, bool big_endian) {
  std::string bytes;
  for (double v : points.values()) bytes += bytes_of(v, big_endian);
  return bytes;
}

// A header integer of `size` bytes.
std::string header_int(std::uint64_t value, std::size_t size, bool big_endian) {
  return size == 8 ? bytes_of(value, big_endian) : bytes_of(std::uint32_t(value), big_endian);
}

// The zlib stream VTK writes: block count, block size, last block size, compressed sizes, blocks.
std::pair<std::string, std::string> zlib_stream(const std::string& data, std::size_t block, std::size_t size,
                                                bool big) {
  std::string header, blocks;
  const std::size_t count = (data.size() + block - 1) / block;
  header = header_int(count, size, big) + header_int(block, size, big) + header_int(data.size() % block, size, big);
  for (std::size_t b = 0; b < count; ++b) {
    const std::string part = data.substr(b * block, block);
    uLongf length = compressBound(uLong(part.size()));
    std::string out(length, '\0');
    compress(reinterpret_cast<Bytef*>(out.data()), &length, reinterpret_cast<const Bytef*>(part.data()),
             uLong(part.size()));
    out.resize(length);
    header += header_int(length, size, big);
    blocks += out;
  }
  return {header, blocks};
}

std::string vtp(const std::string& attributes, const std::string& pieces, const std::string& appended = "") {
  return "<?xml version=\"1.0\"?>\n<!-- by hand -->\n<VTKFile type=\"PolyData\" version=\"1.0\" " + attributes +
         ">\n<PolyData>\n" + pieces + "</PolyData>\n" + appended + "</VTKFile>\n";
}

std::string piece(std::size_t n, const std::string& array_attributes, const std::string& content = "") {
  return "<Piece NumberOfPoints=\"" + std::to_string(n) +
         "\" NumberOfVerts=\"0\">\n<PointData/>\n<Points>\n"
         "<DataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\" " +
         array_attributes + ">" + content + "</DataArray>\n</Points>\n</Piece>\n";
}

TEST_F(VtkReadersTest, VtpInEveryEncodingHeaderTypeByteOrderAndCompression) {
  SCOPED_TRACE(test_seed());
  const PointSet points = random_points(Distribution::Uniform, 3000, 3, test_seed(), -1e5, 1e5);
  for (const bool big : {false, true}) {
    for (const std::size_t size : {4u, 8u}) {
      const std::string attributes = std::string("byte_order=\"") + (big ? "BigEndian" : "LittleEndian") +
                                     "\" header_type=\"" + (size == 8 ? "UInt64" : "UInt32") + "\"";
      const std::string data = float64_bytes(points, big);
      const std::string raw = header_int(data.size(), size, big) + data;
      const auto [zheader, zblocks] = zlib_stream(data, 32768, size, big);
      const std::string zlib = attributes + " compressor=\"vtkZLibDataCompressor\"";
      const std::string files[] = {
          vtp(attributes, piece(points.size(), "format=\"binary\"", base64(raw))),
          vtp(attributes, piece(points.size(), "format=\"appended\" offset=\"0\""),
              "<AppendedData encoding=\"raw\">\n _" + raw + "\n</AppendedData>\n"),
          vtp(attributes, piece(points.size(), "format=\"appended\" offset=\"0\""),
              "<AppendedData encoding=\"base64\">\n _" + base64(raw) + "\n</AppendedData>\n"),
          vtp(zlib, piece(points.size(), "format=\"binary\"", base64(zheader) + base64(zblocks))),
          vtp(zlib, piece(points.size(), "format=\"appended\" offset=\"0\""),
              "<AppendedData encoding=\"raw\">\n _" + zheader + zblocks + "\n</AppendedData>\n")};
      for (const std::string& content : files) {
        const std::string file = write_file("p.vtp", content);
        EXPECT_EQ(load_points(file).values(), points.values()) << content.substr(0, 200);
      }
    }
  }
}

TEST_F(VtkReadersTest, VtpAsciiInSeveralPieces) {
  const std::string file =
      write_file("a.vtp", vtp("", piece(2, "format=\"ascii\"", "\n 1 2 3\n 4.5 -5 6e2 ") +
                                      piece(0, "format=\"ascii\"") + piece(1, "format=\"ascii\"", "0.1 0.2 0.3")));
  EXPECT_EQ(load_points(file).values(), (std::vector<double>{1, 2, 3, 4.5, -5, 600, 0.1, 0.2, 0.3}));
}

TEST_F(VtkReadersTest, VtpCorruptHeadersAreRefused) {
  EXPECT_TRUE(rejects("components.vtp",
                      vtp("",
                          "<Piece NumberOfPoints=\"1\"><Points><DataArray type=\"Float32\" "
                          "NumberOfComponents=\"2147483648\" format=\"ascii\">1 2 3"
                          "</DataArray></Points></Piece>"),
                      {"line 5", "NumberOfComponents=\"2147483648\""}));
  std::string e999 = vtp("", piece(1, "format=\"ascii\"", "1 2 3"));
  e999.replace(e999.find("NumberOfPoints=\"1\""), 18, "NumberOfPoints=\"1e999\"");
  EXPECT_TRUE(rejects("e999.vtp", e999, {"line 5", "NumberOfPoints=\"1e999\""}));
  EXPECT_TRUE(rejects("foo.vtp", vtp("", piece(2, "format=\"ascii\"", "1 2 3\n4 foo 6")),
                      {"line 9", "point 1, component 1", "'foo' is not a number"}));
  EXPECT_TRUE(rejects("few.vtp", vtp("", piece(2, "format=\"ascii\"", "1  2  3  4  5  ")), {"the values end"}));
  EXPECT_TRUE(rejects("many.vtp", vtp("", piece(1, "format=\"ascii\"", "1 2 3 4")), {"more values"}));
  EXPECT_TRUE(rejects("lz4.vtp", vtp("compressor=\"vtkLZ4DataCompressor\"", piece(1, "format=\"binary\"")),
                      {"vtkLZ4DataCompressor", "only zlib"}));
  EXPECT_TRUE(rejects("base64.vtp", vtp("", piece(1, "format=\"binary\"", "AAAAGAAA")), {"size header says"}));
  EXPECT_TRUE(rejects("quartet.vtp", vtp("", piece(1, "format=\"binary\"", "AAAAGAA")), {"group of four"}));
  EXPECT_TRUE(rejects(
      "offset.vtp",
      vtp("", piece(1, "format=\"appended\" offset=\"99\""), "<AppendedData encoding=\"raw\">_abc</AppendedData>"),
      {"offset 99 is beyond"}));
  EXPECT_TRUE(rejects("noappended.vtp", vtp("", piece(1, "format=\"appended\" offset=\"0\"")), {"no AppendedData"}));
  EXPECT_TRUE(rejects("tag.vtp", "<VTKFile type=\"PolyData\" a=\"b>", {"malformed XML"}));
  EXPECT_TRUE(rejects("grid.vtp", "<VTKFile type=\"ImageData\"></VTKFile>", {"holds ImageData"}));
  EXPECT_TRUE(rejects("none.vtp", "not xml at all", {"no VTKFile"}));
}

TEST_F(VtkReadersTest, VtpAskingForMoreDataThanTheFileCanHoldIsBadInput) {
  // 10^12 points: 3 x 10^12 values. VTK's reader reported that as lack of memory.
  const std::string header = bytes_of<std::uint64_t>(1) + bytes_of<std::uint64_t>(24000000000000ull) +
                             bytes_of<std::uint64_t>(0) + bytes_of<std::uint64_t>(16);
  EXPECT_TRUE(rejects("huge.vtp",
                      vtp("header_type=\"UInt64\" compressor=\"vtkZLibDataCompressor\"",
                          piece(1000000000000ull, "format=\"binary\"", base64(header + std::string(16, 'x')))),
                      {"more than the file can hold"}));
  const auto [zheader, zblocks] = zlib_stream(std::string(24, '\0'), 8, 4, false);
  std::string lying = zheader;
  lying.replace(12, 4, bytes_of<std::uint32_t>(1u << 30));  // a compressed size far beyond the data
  EXPECT_TRUE(rejects(
      "blocks.vtp",
      vtp("compressor=\"vtkZLibDataCompressor\"", piece(1, "format=\"binary\"", base64(lying) + base64(zblocks))),
      {"compressed blocks are larger than the data"}));
}

// `bytes` of a 4 KiB random pattern repeated: compresses well, and inflates at about the speed of
// copying memory, so a block of them holds the inflater long.
std::string repeated_pattern(std::size_t bytes, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::string pattern(4096, '\0');
  for (char& c : pattern) c = char(random());
  std::string data;
  data.reserve(bytes);
  while (data.size() < bytes) data += pattern.substr(0, std::min(pattern.size(), bytes - data.size()));
  return data;
}

TEST_F(VtkReadersTest, OneZlibBlockLargerThanTheInflateStepIsReadWhole) {
  SCOPED_TRACE(test_seed());
  // One block of 3 MiB and a bit: inflated a MiB at a time, it must come out whole, and its truncated
  // or lengthened stream must be refused.
  const std::string data = repeated_pattern((std::size_t(3) << 20) + 24, test_seed());
  const auto [header, block] = zlib_stream(data, data.size(), 8, false);
  const VtkBinaryLayout layout{8, false, true};
  EXPECT_EQ(read_vtk_binary_array(header + block, data.size(), layout, "one block"), data);
  std::string truncated = header;
  truncated.replace(24, 8, bytes_of<std::uint64_t>(block.size() - 5));
  EXPECT_THROW(read_vtk_binary_array(truncated + block.substr(0, block.size() - 5), data.size(), layout, "cut"), Error);
  std::string longer = header;  // the header's block size 8 bytes short of what the block holds
  longer.replace(8, 8, bytes_of<std::uint64_t>(data.size() - 8));
  EXPECT_THROW(read_vtk_binary_array(longer + block, data.size() - 8, layout, "longer"), Error);
}

TEST_F(VtkReadersTest, CancelInsideOneLargeZlibBlockIsPrompt) {
  // One block of 128 MiB: uncompress() in one call held a cancel for the whole block (over 100 ms).
  const std::string data = repeated_pattern(std::size_t(128) << 20, test_seed());
  const auto [header, block] = zlib_stream(data, data.size(), 8, false);
  const std::string stream = header + block;
  const VtkBinaryLayout layout{8, false, true};
  double fastest_ms = 1e9;
  for (int attempt = 0; attempt < 3 && fastest_ms > 100; ++attempt) {
    const std::optional<double> latency = seconds_to_cancel(std::chrono::milliseconds(5), [&](RunControl& control) {
      read_vtk_binary_array(stream, data.size(), layout, "large block", &control);
    });
    if (!latency) continue;  // inflated before the cancel came: a fast machine, try again
    fastest_ms = std::min(fastest_ms, *latency * 1e3);
  }
  if (fastest_ms == 1e9) GTEST_SKIP() << "128 MiB inflated within 5 ms every time: nothing to cancel";
  std::printf("cancel inside one 128 MiB zlib block returned after %.1f ms\n", fastest_ms);
  EXPECT_LE(fastest_ms, 100.0);
}

const std::string kLegacyHead = "# vtk DataFile Version 3.0\nby hand\n";

TEST_F(VtkReadersTest, LegacyAsciiAndBinaryOfEachDataSet) {
  SCOPED_TRACE(test_seed());
  const PointSet points = random_points(Distribution::Uniform, 50, 3, test_seed(), -1, 1);
  for (const char* dataset : {"POLYDATA", "UNSTRUCTURED_GRID", "STRUCTURED_GRID\nDIMENSIONS 5 10 1"}) {
    const std::string head = kLegacyHead + "BINARY\nDATASET " + dataset + "\nPOINTS 50 double\n";
    const std::string file = write_file("b.vtk", head + float64_bytes(points, true) + "\nCELLS 0 0\n");
    EXPECT_EQ(load_points(file).values(), points.values()) << dataset;
  }
  const std::string file = write_file("a.vtk", kLegacyHead +
                                                   "ASCII\n\nDATASET UNSTRUCTURED_GRID\nPOINTS 3 float\n"
                                                   "0 0 0 1 0\n0 0 1 0.5\nCELLS 1 4\n3 0 1 2\n");
  EXPECT_EQ(load_points(file).values(), (std::vector<double>{0, 0, 0, 1, 0, 0, 0, 1, 0.5}));
}

TEST_F(VtkReadersTest, LegacyCorruptFilesAreRefused) {
  const std::string poly = kLegacyHead + "ASCII\nDATASET POLYDATA\n";
  EXPECT_TRUE(rejects("magic.vtk", "# not vtk\n", {"not a legacy VTK file"}));
  EXPECT_TRUE(rejects("short.vtk", poly + "POINTS 4 float\n1 2 3\n4 5", {"line 5", "the file is too short"}));
  EXPECT_TRUE(rejects("few.vtk", poly + "POINTS 2 float\n1 2 3\n4 5\n", {"point 1, component 2", "values end"}));
  EXPECT_TRUE(rejects("foo.vtk", poly + "POINTS 2 float\n1 2 3\n4 5x 6\n", {"line 7", "point 1, component 1", "'5x'"}));
  EXPECT_TRUE(rejects("count.vtk", poly + "POINTS -3 float\n", {"line 5", "non-negative integer count"}));
  EXPECT_TRUE(rejects(
      "wrap.vtk", kLegacyHead + "BINARY\nDATASET POLYDATA\nPOINTS 1537228672809129302 float\n" + std::string(24, '\0'),
      {"too short"}));
  EXPECT_TRUE(rejects("type.vtk", poly + "POINTS 1 quad\n1 2 3\n", {"unknown POINTS type 'quad'"}));
  EXPECT_TRUE(
      rejects("image.vtk", kLegacyHead + "ASCII\nDATASET STRUCTURED_POINTS\n", {"line 4", "STRUCTURED_POINTS"}));
  EXPECT_TRUE(rejects("dims.vtk",
                      kLegacyHead + "ASCII\nDATASET STRUCTURED_GRID\nDIMENSIONS 2 2 2\nPOINTS 1 float\n1 2 3\n",
                      {"DIMENSIONS give 8 points, POINTS 1"}));
  EXPECT_TRUE(rejects("field.vtk", poly + "FIELD FieldData 1\n", {"'FIELD' before POINTS"}));
  EXPECT_TRUE(rejects("empty.vtk", poly + "POINTS 0 float\n", {"contains no points"}));
}

// POINTS n promises n points, no more and no fewer, in either encoding.
TEST_F(VtkReadersTest, LegacyPointCountMatchesThePoints) {
  SCOPED_TRACE(test_seed());
  const PointSet points = random_points(Distribution::Uniform, 40, 3, test_seed(), -1, 1);
  const std::vector<double> values = points.values();
  std::vector<float> narrow(values.begin(), values.end());
  std::string raw(reinterpret_cast<const char*>(narrow.data()), narrow.size() * sizeof(float));
  for (std::size_t v = 0; v < raw.size(); v += 4) std::swap(raw[v], raw[v + 3]), std::swap(raw[v + 1], raw[v + 2]);
  const std::string binary = kLegacyHead + "BINARY\nDATASET POLYDATA\n";
  const std::string tail = "\nVERTICES 40 80\n" + std::string(320, '\0');
  for (const int count : {39, 40, 41}) {
    const std::string file = write_file("b.vtk", binary + "POINTS " + std::to_string(count) + " float\n" + raw + tail);
    if (count == 40) {
      EXPECT_EQ(load_points(file).size(), 40u);
      continue;
    }
    EXPECT_TRUE(throws_error([&] { load_points(file); }, ErrorKind::BadInput, {file, "count does not match"})) << count;
  }
  std::string rows;
  for (std::size_t i = 0; i < points.size(); ++i)
    rows += std::to_string(points.point(i)[0]) + " " + std::to_string(points.point(i)[1]) + " " +
            std::to_string(points.point(i)[2]) + "\n";
  const std::string ascii = kLegacyHead + "ASCII\nDATASET POLYDATA\n";
  EXPECT_EQ(load_points(write_file("a.vtk", ascii + "POINTS 40 double\n" + rows + "VERTICES 1 2\n1 0\n")).size(), 40u);
  EXPECT_EQ(load_points(write_file("e.vtk", ascii + "POINTS 40 double\n" + rows)).size(), 40u);
  EXPECT_TRUE(rejects("a39.vtk", ascii + "POINTS 39 double\n" + rows, {"line 5: POINTS 39", "count does not match"}));
  EXPECT_TRUE(rejects("a41.vtk", ascii + "POINTS 41 double\n" + rows + "VERTICES 1 2\n", {"'VERTICES'"}));
}

}  // namespace
}  // namespace simjoin::testing
