#include <charconv>
#include <chrono>
#include <cmath>

#include "core/io/point_writers.hpp"
#include "core/io/text_reader.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/io/temp_dir.hpp"

namespace simjoin::testing {
namespace {

class TextReaderTest : public TempDirTest {};

// The points as text: optional header x0..., one row per point, shortest round-trip decimals.
std::string to_text(const PointSet& points, const std::string& delimiter, bool header) {
  std::string text;
  if (header) {
    for (std::size_t k = 0; k < points.dims(); ++k) text += (k ? delimiter : "") + "x" + std::to_string(k);
    text += "\n";
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (std::size_t k = 0; k < points.dims(); ++k) {
      char number[32];
      const char* end = std::to_chars(number, number + sizeof number, points.point(i)[k]).ptr;
      text += (k ? delimiter : "") + std::string(number, std::size_t(end - number));
    }
    text += "\n";
  }
  return text;
}

void expect_same_points(const PointSet& expected, const PointSet& actual) {
  ASSERT_EQ(expected.size(), actual.size());
  ASSERT_EQ(expected.dims(), actual.dims());
  EXPECT_EQ(expected.values(), actual.values());
}

TEST_F(TextReaderTest, DetectsDelimiterAndHeader) {
  SCOPED_TRACE(test_seed());
  const PointSet points = random_points(Distribution::Uniform, 200, 4, test_seed(), -50, 50);
  const std::pair<std::string, char> delimiters[] = {{",", ','}, {"\t", '\t'}, {";", ';'}, {"  ", ' '}, {" \t", ' '}};
  for (const auto& [delimiter, expected] : delimiters) {
    for (bool header : {true, false}) {
      SCOPED_TRACE("delimiter '" + delimiter + "', header " + std::to_string(header));
      const std::string file = write_file("points.txt", to_text(points, delimiter, header));
      const PointSet read = read_text(file);
      expect_same_points(points, read);
      EXPECT_EQ(read.column_names.size(), header ? 4u : 0u);
      if (header) EXPECT_EQ(read.column_names[3], "x3");
      EXPECT_EQ(read.source, file);
      // The same file read with the delimiter and header given explicitly.
      TextReadOptions options;
      options.delimiter = expected;
      options.header = header;
      expect_same_points(points, read_text(file, options));
    }
  }
}

TEST_F(TextReaderTest, SkipsCommentsBlankLinesAndCarriageReturns) {
  const std::string file =
      write_file("c.csv", "# exported points\r\n\r\n x , y \r\n1.5,\"2\"\r\n   \r\n# middle\r\n-3e2,+4\r\n");
  const PointSet read = read_text(file);
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read.column_names, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(read.values(), (std::vector<double>{1.5f, 2, -300, 4}));
}

TEST_F(TextReaderTest, MixedSpacesAndTabsAreOneDelimiter) {
  const PointSet read = read_text(write_file("w.xyz", "1 \t 2\t3\n  4 5    6  \n"));
  EXPECT_EQ(read.dims(), 3u);
  EXPECT_EQ(read.values(), (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

TEST_F(TextReaderTest, SelectsColumnsByNameAndIndex) {
  SCOPED_TRACE(test_seed());
  const PointSet points = random_points(Distribution::Uniform, 50, 4, test_seed());
  const std::string file = write_file("p.csv", to_text(points, ",", true));
  for (const std::vector<std::string>& columns :
       {std::vector<std::string>{"x2", "x0"}, std::vector<std::string>{"2", "0"},
        std::vector<std::string>{"x2", "0"}}) {
    TextReadOptions options;
    options.columns = columns;
    const PointSet read = read_text(file, options);
    ASSERT_EQ(read.dims(), 2u);
    ASSERT_EQ(read.size(), points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
      EXPECT_EQ(read.point(i)[0], points.point(i)[2]);
      EXPECT_EQ(read.point(i)[1], points.point(i)[0]);
    }
    EXPECT_EQ(read.column_names, (std::vector<std::string>{"x2", "x0"}));
  }
}

TEST_F(TextReaderTest, SkipsNonNumericColumnsWithAWarning) {
  const PointSet read = read_text(write_file("l.csv", "name,x,y\nalpha,1,2\nbeta,3,4\n"));
  EXPECT_EQ(read.values(), (std::vector<double>{1, 2, 3, 4}));
  ASSERT_EQ(read.warnings.size(), 1u);
  EXPECT_NE(read.warnings[0].find("column 1 (name)"), std::string::npos) << read.warnings[0];
}

TEST_F(TextReaderTest, ReadsWhatWritePointsWrites) {
  SCOPED_TRACE(test_seed());
  PointSet points = random_points(Distribution::Clusters, 300, 3, test_seed(), -1e6, 1e6);
  points.column_names = {"a", "b", "c"};
  const std::string file = path("w.csv");
  write_points(file, points);
  const PointSet read = read_text(file);
  expect_same_points(points, read);
  EXPECT_EQ(read.column_names, points.column_names);
}

TEST_F(TextReaderTest, KeepsFloat64Values) {
  // Millimetres on UTM northings, and values float32 would lose or flush to zero, are kept; values
  // below float64's range underflow to zero.
  const PointSet read = read_text(write_file("t.csv", "4500000.123,1e-60\n1e300,1e-400\n"));
  EXPECT_EQ(read.values(), (std::vector<double>{4500000.123, 1e-60, 1e300, 0}));
  EXPECT_EQ(read.source_type, "text");
}

TEST_F(TextReaderTest, ReportsProgressAndHonoursCancel) {
  SCOPED_TRACE(test_seed());
  const PointSet points = random_points(Distribution::Uniform, 100000, 2, test_seed());
  const std::string file = write_file("big.csv", to_text(points, ",", false));
  std::vector<double> fractions;
  RunControl control([&](double fraction, const std::string&) { fractions.push_back(fraction); });
  expect_same_points(points, read_text(file, {}, &control));
  ASSERT_GE(fractions.size(), 2u);
  EXPECT_GT(fractions.front(), 0.0);
  EXPECT_LT(fractions.front(), 1.0);
  EXPECT_EQ(fractions.back(), 1.0);

  RunControl cancelled;
  cancelled.request_cancel();
  EXPECT_TRUE(throws_error([&] { read_text(file, {}, &cancelled); }, ErrorKind::Cancelled, {}));
}

// Each bad input names the file and where in it the problem is.
class TextReaderErrorTest : public TextReaderTest {
 protected:
  ::testing::AssertionResult rejects(const std::string& content, std::vector<std::string> parts,
                                     const TextReadOptions& options = {}) {
    const std::string file = write_file("bad.csv", content);
    parts.push_back(file);
    return throws_error([&] { read_text(file, options); }, ErrorKind::BadInput, parts);
  }
};

TEST_F(TextReaderErrorTest, EmptyOrNoData) {
  EXPECT_TRUE(rejects("", {"file is empty"}));
  EXPECT_TRUE(rejects("# only a comment\n\n  \n", {"no data"}));
  EXPECT_TRUE(rejects("x,y\n# nothing else\n", {"header (line 1)", "no data rows"}));
}

TEST_F(TextReaderErrorTest, RaggedRow) {
  EXPECT_TRUE(rejects("# c\na,b,c,d\n1,2,3,4\n1,2,3,4\n\n1,2,3,4\n1,2,3\n", {"line 7 has 3 fields, expected 4"}));
  EXPECT_TRUE(rejects("1 2\n3 4 5\n", {"line 2 has 3 fields, expected 2"}));
}

TEST_F(TextReaderErrorTest, NonNumericCellNamesLineAndColumn) {
  EXPECT_TRUE(rejects("x,y,z\n1,2,3\n4,five,6\n", {"line 3, column 2 (y)", "'five' is not a number"}));
  EXPECT_TRUE(rejects("1;2\n3;4x\n", {"line 2, column 2:", "'4x'"}));
  EXPECT_TRUE(rejects("x,y\n1,\n", {"line 2, column 2 (y)", "empty cell"}));
  TextReadOptions no_header;
  no_header.header = false;
  EXPECT_TRUE(rejects("1,2\nx,3\n", {"line 2, column 1", "'x' is not a number"}, no_header));
}

TEST_F(TextReaderErrorTest, AmbiguousDelimiterNamesTheLine) {
  // Decimal commas with ';' between fields: the first line decides ',' and a cell holds '5;2'.
  EXPECT_TRUE(rejects("1,5;2,25\n3,5;4,75\n", {"line 1, column 2", "'5;2'", "ambiguous"}));
}

TEST_F(TextReaderErrorTest, NonFiniteOrOutOfRange) {
  EXPECT_TRUE(rejects("x,y\n1,2\n3,nan\n", {"line 3, column 2 (y)", "'nan' is not a finite number"}));
  EXPECT_TRUE(rejects("1\t2\n-inf\t4\n", {"line 2, column 1", "'-inf' is not a finite number"}));
  EXPECT_TRUE(rejects("1,2\n1e400,4\n", {"line 2, column 1", "outside the float64 range"}));
}

TEST_F(TextReaderErrorTest, NoNumericColumnGivesZeroDimensions) {
  EXPECT_TRUE(rejects("a,b\nfoo,bar\n", {"line 2 has no numeric column", "d = 0"}));
}

TEST_F(TextReaderErrorTest, BadColumnSelection) {
  TextReadOptions options;
  options.columns = {"x", "w"};
  EXPECT_TRUE(rejects("x,y\n1,2\n", {"unknown column 'w'", "x, y"}, options));
  options.columns = {"5"};
  EXPECT_TRUE(rejects("x,y\n1,2\n", {"column index 5 is out of range", "indices 0 to 1"}, options));
  options.columns = {"y"};
  EXPECT_TRUE(rejects("1,2\n", {"'y' is selected by name, but the file has no header"}, options));
  options.columns = {"y", "1"};
  EXPECT_TRUE(rejects("x,y\n1,2\n", {"column 2 (y) is selected twice"}, options));
}

// One rule for text: CR, LF and CRLF end rows alike; a cell that does not parse is refused wherever it
// stands, the first data row included; a byte-order mark is no part of the first cell or name.
TEST_F(TextReaderTest, EveryLineEndReadsAsRows) {
  SCOPED_TRACE(test_seed());
  const PointSet points = random_points(Distribution::Uniform, 40, 3, test_seed(), -50, 50);
  for (const std::string ending : {"\n", "\r\n", "\r"}) {
    for (const std::string delimiter : {",", "\t"}) {
      std::string text = to_text(points, delimiter, true);
      std::string converted;
      for (char c : text) converted += c == '\n' ? ending : std::string(1, c);
      const PointSet read = read_text(write_file("rows.csv", converted));
      expect_same_points(points, read);
      EXPECT_EQ(read.column_names, (std::vector<std::string>{"x0", "x1", "x2"}));
    }
  }
  // A lone CR counts as a line in error messages too.
  const std::string file = write_file("cr.csv", "x,y\r1,2\r\r3,oops\r");
  EXPECT_TRUE(throws_error([&] { read_text(file); }, ErrorKind::BadInput, {file, "line 4, column 2 (y)", "'oops'"}));
}

TEST_F(TextReaderTest, ByteOrderMarkIsStripped) {
  const PointSet with_header = read_text(write_file("b.csv", "\xEF\xBB\xBFx,y\n1,2\n"));
  EXPECT_EQ(with_header.column_names, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(with_header.values(), (std::vector<double>{1, 2}));
  const PointSet numbers = read_text(write_file("n.csv",
                                                "\xEF\xBB\xBF"
                                                "0.5,2,3\n4,5,6\n"));
  EXPECT_EQ(numbers.dims(), 3u);
  EXPECT_EQ(numbers.values(), (std::vector<double>{0.5, 2, 3, 4, 5, 6}));
}

TEST_F(TextReaderErrorTest, BrokenNumberInTheFirstRowIsRefusedAsInAnyRow) {
  for (const std::size_t row : {1, 2, 6}) {
    std::string text = "x,y,z\n";
    for (std::size_t r = 1; r <= 6; ++r) text += r == row ? "1,2,0.51\xE2\x80\xA6x\n" : "1,2,3\n";
    EXPECT_TRUE(rejects(text, {"line " + std::to_string(row + 1) + ", column 3 (z)", "is not a number"})) << row;
  }
  EXPECT_TRUE(rejects("1,-x,3\n4,5,6\n", {"line 1, column 2", "'-x' is not a number"}));
  // A cell that starts as no number can start, in a file with a header, is a text column.
  const PointSet read = read_text(write_file("ok.csv", "id,x\nP001,1\nP002,2\n"));
  EXPECT_EQ(read.values(), (std::vector<double>{1, 2}));
}

TEST_F(TextReaderErrorTest, NulBytesAreRefused) {
  EXPECT_TRUE(rejects(std::string("1,2\n3,\0\0\n", 10), {"line 2", "NUL byte"}));
  EXPECT_TRUE(rejects(std::string("\xFF\xFE"
                                  "1\0,\0"
                                  "2\0",
                                  8),
                      {"line 1", "NUL byte"}));
}

TEST_F(TextReaderErrorTest, WarningNamesNoPath) {
  const PointSet read = read_text(write_file("l.csv", "name,x\nalpha,1\n"));
  ASSERT_EQ(read.warnings.size(), 1u);
  EXPECT_EQ(read.warnings[0].find("l.csv"), std::string::npos) << read.warnings[0];
}

TEST_F(TextReaderErrorTest, OverlongLineIsRefusedAsSoonAsItPassesTheLimit) {
  // 100 MB of one line: refused in well under a second, without a field list of its size.
  std::string line;
  line.reserve(100'000'000);
  while (line.size() < 100'000'000) line += "0.123456789,";
  line += "1\n";
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(rejects(line, {"line 1 has more than 16384 fields", "1024 dimensions"}));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST_F(TextReaderErrorTest, MissingFile) {
  const std::string missing = path("missing.csv");
  EXPECT_TRUE(throws_error([&] { read_text(missing); }, ErrorKind::BadInput, {missing, "not found"}));
}

}  // namespace
}  // namespace simjoin::testing
