#include <vtkCellArray.h>
#include <vtkDataSetWriter.h>
#include <vtkIntArray.h>
#include <vtkPLYWriter.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLPolyDataReader.h>
#include <vtkXMLPolyDataWriter.h>

#include <cstdio>
#include <cstdlib>
#include <limits>

#include "core/io/load_points.hpp"
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

// VTK's XML writer in each of its data modes (0 ascii, 1 inline binary, 2 appended), appended data
// raw or base64, compressed by zlib or not, with 32- or 64-bit size headers.
void write_vtp(const std::string& file, const PointSet& points, int mode = 2, bool encode = true, bool compress = true,
               bool header64 = true) {
  auto writer = vtkSmartPointer<vtkXMLPolyDataWriter>::New();
  writer->SetFileName(file.c_str());
  writer->SetInputData(to_polydata(points));
  writer->SetDataMode(mode);
  writer->SetEncodeAppendedData(encode);
  if (!compress) writer->SetCompressorTypeToNone();
  if (header64)
    writer->SetHeaderTypeToUInt64();
  else
    writer->SetHeaderTypeToUInt32();
  ASSERT_EQ(writer->Write(), 1);
}

void write_binary_ply(const std::string& file, const PointSet& points) {
  auto writer = vtkSmartPointer<vtkPLYWriter>::New();
  writer->SetFileName(file.c_str());
  writer->SetFileTypeToBinary();
  writer->SetInputData(to_polydata(points));
  ASSERT_EQ(writer->Write(), 1);
}

void write_legacy(const std::string& file, vtkDataSet* data, bool binary) {
  auto writer = vtkSmartPointer<vtkDataSetWriter>::New();
  writer->SetFileName(file.c_str());
  writer->SetInputData(data);
  if (binary)
    writer->SetFileTypeToBinary();
  else
    writer->SetFileTypeToASCII();
  ASSERT_EQ(writer->Write(), 1);
}

// The project's readers read what VTK's writers write, in every mode, exactly.
TEST_F(VtkPointsTest, ReadsEveryVtpModeWrittenByVtk) {
  SCOPED_TRACE(test_seed());
  const PointSet points = random_points(Distribution::Clusters, 5000, 3, test_seed(), -10, 10);
  for (int mode = 0; mode <= 2; ++mode) {
    for (const bool encode : {false, true}) {
      for (const bool compress : {false, true}) {
        for (const bool header64 : {false, true}) {
          const std::string vtp = path("points.vtp");
          write_vtp(vtp, points, mode, encode, compress, header64);
          EXPECT_EQ(load_points(vtp).values(), points.values())
              << "mode " << mode << " encode " << encode << " compress " << compress << " header64 " << header64;
        }
      }
    }
  }
}

TEST_F(VtkPointsTest, ReadsBinaryPlyAndLegacyFilesWrittenByVtk) {
  SCOPED_TRACE(test_seed());
  const PointSet points = random_points(Distribution::Clusters, 500, 3, test_seed(), -10, 10);
  const std::string ply = path("binary.ply");
  write_binary_ply(ply, points);
  EXPECT_EQ(load_points(ply).values(), points.values());
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  grid->SetPoints(to_polydata(points)->GetPoints());
  for (const bool binary : {false, true}) {
    const std::string poly_file = path("poly.vtk"), grid_file = path("grid.vtk");
    write_legacy(poly_file, to_polydata(points), binary);
    write_legacy(grid_file, grid, binary);
    // VTK writes ASCII float32 values with 6 significant digits (%g), read back as float32; binary
    // ones exactly.
    std::vector<double> expected = points.values();
    for (double& v : expected) {
      char text[32];
      std::snprintf(text, sizeof text, "%g", v);
      if (!binary) v = double(std::strtof(text, nullptr));
    }
    EXPECT_EQ(load_points(poly_file).values(), expected) << binary;
    EXPECT_EQ(load_points(grid_file).values(), expected) << binary;
  }
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
  EXPECT_TRUE(throws_error(
      [&] {
        write_labeled_vtp(file, points, {{"short", {1, 2}}});
      },
      ErrorKind::Internal, {"'short' has 2 values for 3 points"}));
}

}  // namespace
}  // namespace simjoin::testing
