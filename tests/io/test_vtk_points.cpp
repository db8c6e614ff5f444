#include <vtkCellArray.h>
#include <vtkIntArray.h>
#include <vtkPLYWriter.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkXMLPolyDataReader.h>
#include <vtkXMLPolyDataWriter.h>

#include <limits>

#include "core/vtkio/load_points.hpp"
#include "core/vtkio/vtk_points.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/io/temp_dir.hpp"

namespace simjoin::testing {
namespace {

class VtkPointsTest : public TempDirTest {
 protected:
  ::testing::AssertionResult rejects(const std::string& file, std::vector<std::string> parts) {
    parts.push_back(file);
    return throws_error([&] { load_points(file); }, ErrorKind::BadInput, parts);
  }
};

vtkSmartPointer<vtkPolyData> to_polydata(const PointSet& points) {
  auto vtk_points = vtkSmartPointer<vtkPoints>::New();
  vtk_points->SetDataTypeToFloat();
  for (std::size_t i = 0; i < points.size(); ++i) vtk_points->InsertNextPoint(points.point(i));
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(vtk_points);
  return poly;
}

void write_vtp(const std::string& file, const PointSet& points) {
  auto writer = vtkSmartPointer<vtkXMLPolyDataWriter>::New();
  writer->SetFileName(file.c_str());
  writer->SetInputData(to_polydata(points));
  ASSERT_EQ(writer->Write(), 1);
}

void write_binary_ply(const std::string& file, const PointSet& points) {
  auto writer = vtkSmartPointer<vtkPLYWriter>::New();
  writer->SetFileName(file.c_str());
  writer->SetFileTypeToBinary();
  writer->SetInputData(to_polydata(points));
  ASSERT_EQ(writer->Write(), 1);
}

const char* kAsciiPly =
    "ply\nformat ascii 1.0\ncomment by hand\nelement vertex 3\n"
    "property float x\nproperty float y\nproperty float z\nend_header\n"
    "0 1 2\n-1.5 2.5 1e3\n7 8 9\n";

TEST_F(VtkPointsTest, ReadsAsciiPly) {
  const std::string file = write_file("hand.ply", kAsciiPly);
  const PointSet points = load_points(file);
  EXPECT_EQ(points.dims(), 3u);
  EXPECT_EQ(points.values(), (std::vector<double>{0, 1, 2, -1.5f, 2.5f, 1000, 7, 8, 9}));
  EXPECT_EQ(points.source, file);
}

TEST_F(VtkPointsTest, ReadsBinaryPlyAndVtpWrittenByVtk) {
  SCOPED_TRACE(test_seed());
  const PointSet points = random_points(Distribution::Clusters, 500, 3, test_seed(), -10, 10);
  const std::string ply = path("binary.ply");
  write_binary_ply(ply, points);
  EXPECT_EQ(load_points(ply).values(), points.values());
  const std::string vtp = path("points.vtp");
  write_vtp(vtp, points);
  EXPECT_EQ(load_points(vtp).values(), points.values());
}

TEST_F(VtkPointsTest, ReadsLegacyPolydataAndUnstructuredGrid) {
  const std::string poly = write_file("poly.vtk",
                                      "# vtk DataFile Version 3.0\nby hand\nASCII\nDATASET POLYDATA\n"
                                      "POINTS 2 float\n1 2 3\n4 5 6\n");
  EXPECT_EQ(load_points(poly).values(), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  const std::string grid = write_file("grid.vtk",
                                      "# vtk DataFile Version 3.0\nby hand\nASCII\nDATASET UNSTRUCTURED_GRID\n"
                                      "POINTS 3 double\n0 0 0\n1 0 0\n0 1 0.5\n"
                                      "CELLS 1 4\n3 0 1 2\nCELL_TYPES 1\n5\n");
  EXPECT_EQ(load_points(grid).values(), (std::vector<double>{0, 0, 0, 1, 0, 0, 0, 1, 0.5f}));
}

TEST_F(VtkPointsTest, MissingFile) {
  for (const char* name : {"none.ply", "none.vtp", "none.vtk"})
    EXPECT_TRUE(rejects(path(name), {"file not found"}));
}

TEST_F(VtkPointsTest, GarbageFiles) {
  const std::string garbage = "this is not a point file\n\x01\x02\x03";
  EXPECT_TRUE(rejects(write_file("garbage.ply", garbage), {"cannot read as PLY"}));
  EXPECT_TRUE(rejects(write_file("garbage.vtp", garbage), {"cannot read as VTK XML polydata"}));
  EXPECT_TRUE(rejects(write_file("garbage.vtk", garbage), {"cannot read as legacy VTK"}));
}

TEST_F(VtkPointsTest, TruncatedFiles) {
  const std::string ply = kAsciiPly;
  EXPECT_TRUE(rejects(write_file("short.ply", ply.substr(0, ply.size() - 12)),
                      {"truncated PLY file", "declares 3 element lines, the file has 2"}));
  EXPECT_TRUE(rejects(write_file("short.vtk", "# vtk DataFile Version 3.0\nby hand\nASCII\nDATASET POLYDATA\n"
                                              "POINTS 4 float\n1 2 3\n4 5"),
                      {"cannot read as legacy VTK", "Error reading ascii data"}));

  SCOPED_TRACE(test_seed());
  const PointSet points = random_points(Distribution::Uniform, 100, 3, test_seed());
  const std::string vtp = path("full.vtp");
  write_vtp(vtp, points);
  const std::string vtp_bytes = read_whole_file(vtp);
  EXPECT_TRUE(rejects(write_file("short.vtp", vtp_bytes.substr(0, vtp_bytes.size() / 2)), {"cannot read"}));

  const std::string binary_ply = path("full.ply");
  write_binary_ply(binary_ply, points);
  const std::string ply_bytes = read_whole_file(binary_ply);
  EXPECT_TRUE(rejects(write_file("short-binary.ply", ply_bytes.substr(0, ply_bytes.size() - 5)),
                      {"truncated PLY file", "at least 1200 bytes of data, the file has 1195"}));
}

TEST_F(VtkPointsTest, ZeroPoints) {
  EXPECT_TRUE(rejects(write_file("empty.ply", "ply\nformat ascii 1.0\nelement vertex 0\nproperty float x\n"
                                               "property float y\nproperty float z\nend_header\n"),
                      {"contains no points"}));
  EXPECT_TRUE(rejects(write_file("empty.vtk", "# vtk DataFile Version 3.0\nnone\nASCII\nDATASET POLYDATA\n"
                                               "POINTS 0 float\n"),
                      {"contains no points"}));
}

TEST_F(VtkPointsTest, NonFiniteCoordinates) {
  PointSet points(2, 3, {1, 2, 3, 4, std::numeric_limits<float>::quiet_NaN(), 6});
  const std::string file = path("nan.vtp");
  write_vtp(file, points);
  EXPECT_TRUE(rejects(file, {"point 1, dimension 1 is NaN"}));
}

TEST_F(VtkPointsTest, LabeledVtpKeepsThreeDimensionsAndArrays) {
  SCOPED_TRACE(test_seed());
  for (std::size_t dims : {2u, 3u, 5u}) {
    const PointSet points = random_points(Distribution::Uniform, 40, dims, test_seed());
    std::vector<std::int32_t> labels(points.size()), order(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
      labels[i] = std::int32_t(i % 3) - 1;
      order[i] = std::int32_t(i);
    }
    const std::string file = path("labeled.vtp");
    write_labeled_vtp(file, points, {{"cluster", labels}, {"order", order}});

    auto reader = vtkSmartPointer<vtkXMLPolyDataReader>::New();
    reader->SetFileName(file.c_str());
    reader->Update();
    vtkPolyData* poly = reader->GetOutput();
    ASSERT_EQ(poly->GetNumberOfPoints(), vtkIdType(points.size()));
    EXPECT_EQ(poly->GetNumberOfVerts(), vtkIdType(points.size()));
    for (std::size_t i = 0; i < points.size(); ++i) {
      double xyz[3];
      poly->GetPoint(vtkIdType(i), xyz);
      for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(float(xyz[k]), k < dims ? points.point(i)[k] : 0.0f);
    }
    auto* cluster = vtkIntArray::SafeDownCast(poly->GetPointData()->GetArray("cluster"));
    ASSERT_NE(cluster, nullptr);
    for (std::size_t i = 0; i < points.size(); ++i) EXPECT_EQ(cluster->GetValue(vtkIdType(i)), labels[i]);
    ASSERT_NE(poly->GetPointData()->GetArray("order"), nullptr);
  }
}

TEST_F(VtkPointsTest, LabeledVtpErrors) {
  const PointSet points(3, 2);
  const std::string unwritable = path("missing/out.vtp");
  EXPECT_TRUE(throws_error([&] { write_labeled_vtp(unwritable, points, {}); }, ErrorKind::BadInput, {unwritable}));
  const std::string file = path("out.vtp");
  EXPECT_TRUE(throws_error([&] { write_labeled_vtp(file, points, {{"short", {1, 2}}}); }, ErrorKind::Internal,
                           {"'short' has 2 values for 3 points"}));
}

}  // namespace
}  // namespace simjoin::testing
