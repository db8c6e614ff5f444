#include "core/vtkio/vtk_points.hpp"

#include <vtkCellArray.h>
#include <vtkGenericDataObjectReader.h>
#include <vtkIntArray.h>
#include <vtkObjectFactory.h>
#include <vtkOutputWindow.h>
#include <vtkPLYReader.h>
#include <vtkPointData.h>
#include <vtkPointSet.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkXMLPolyDataReader.h>
#include <vtkXMLPolyDataWriter.h>

#include <algorithm>
#include <filesystem>
#include <mutex>

#include "core/error.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/file_io.hpp"
#include "core/vtkio/ply_check.hpp"

namespace simjoin {

namespace {

// Collects VTK's error and warning texts instead of printing them to stderr.
class CapturingOutputWindow : public vtkOutputWindow {
 public:
  static CapturingOutputWindow* New();
  vtkTypeMacro(CapturingOutputWindow, vtkOutputWindow);

  void DisplayText(const char* text) override {
    const MessageTypes type = GetCurrentMessageType();
    // Generic warnings come from the file parsers themselves (e.g. "Error reading ascii data").
    if (type == MESSAGE_TYPE_ERROR || type == MESSAGE_TYPE_GENERIC_WARNING) errors.push_back(clean(text));
    if (type == MESSAGE_TYPE_WARNING) warnings.push_back(clean(text));
  }

  std::vector<std::string> errors;
  std::vector<std::string> warnings;

 private:
  // "ERROR: In /src/vtkX.cxx, line 12\nvtkX (0x55d0): Could not open\n\n" -> "Could not open".
  static std::string clean(std::string text) {
    if (text.rfind("ERROR: In ", 0) == 0 || text.rfind("Warning: In ", 0) == 0 ||
        text.rfind("Generic Warning: In ", 0) == 0) {
      const std::size_t newline = text.find('\n');
      text = newline == std::string::npos ? std::string() : text.substr(newline + 1);
    }
    if (const std::size_t tag = text.find("): "); tag != std::string::npos && text.find(" (0x") < tag)
      text = text.substr(tag + 3);
    std::replace(text.begin(), text.end(), '\n', ' ');
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
  }
};
vtkStandardNewMacro(CapturingOutputWindow);

// Routes VTK's messages into a CapturingOutputWindow for as long as it lives. The output window is
// global, so captures are serialised.
class MessageCapture {
 public:
  MessageCapture() : lock_(mutex()), previous_(vtkOutputWindow::GetInstance()) {
    window_ = vtkSmartPointer<CapturingOutputWindow>::New();
    vtkOutputWindow::SetInstance(window_);
  }
  ~MessageCapture() { vtkOutputWindow::SetInstance(previous_); }
  MessageCapture(const MessageCapture&) = delete;
  MessageCapture& operator=(const MessageCapture&) = delete;

  const std::vector<std::string>& errors() const { return window_->errors; }
  const std::vector<std::string>& warnings() const { return window_->warnings; }
  std::string first_error() const { return errors().empty() ? std::string() : errors().front(); }

 private:
  static std::mutex& mutex() {
    static std::mutex instance;
    return instance;
  }
  std::lock_guard<std::mutex> lock_;
  vtkSmartPointer<vtkOutputWindow> previous_;
  vtkSmartPointer<CapturingOutputWindow> window_;
};

template <typename Reader>
vtkSmartPointer<vtkDataObject> run_reader(const std::string& path) {
  auto reader = vtkSmartPointer<Reader>::New();
  reader->SetFileName(path.c_str());
  reader->Update();
  return reader->GetOutputDataObject(0);
}

const char* format_name(const std::string& ext) {
  if (ext == ".ply") return "PLY";
  if (ext == ".vtp") return "VTK XML polydata (.vtp)";
  return "legacy VTK";
}

}  // namespace

PointSet read_vtk_points(const std::string& path, RunControl* control) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    fail(ErrorKind::BadInput, path + (std::filesystem::exists(path, ec) ? ": is not a regular file" : ": file not found"));
  if (control) control->throw_if_cancelled();
  const std::string ext = lower_extension(path);
  if (ext == ".ply") check_ply_length(path, read_file_bytes(path, control));
  MessageCapture capture;
  vtkSmartPointer<vtkDataObject> data;
  if (ext == ".ply") data = run_reader<vtkPLYReader>(path);
  else if (ext == ".vtp") data = run_reader<vtkXMLPolyDataReader>(path);
  else if (ext == ".vtk") data = run_reader<vtkGenericDataObjectReader>(path);
  else fail(ErrorKind::BadInput, path + ": not a .ply, .vtp or .vtk file");

  if (!capture.errors().empty())
    fail(ErrorKind::BadInput, path + ": cannot read as " + format_name(ext) + ": " + capture.first_error());
  vtkPointSet* dataset = vtkPointSet::SafeDownCast(data);
  if (!dataset)
    fail(ErrorKind::BadInput, path + ": holds " + (data ? data->GetClassName() : "nothing") +
                                  "; need polydata, an unstructured grid or a structured grid");
  vtkPoints* vtk_points = dataset->GetPoints();
  const std::size_t n = vtk_points ? std::size_t(vtk_points->GetNumberOfPoints()) : 0;
  if (n == 0) fail(ErrorKind::BadInput, path + ": contains no points");

  PointSet points(n, 3);
  for (std::size_t i = 0; i < n; ++i) {
    double xyz[3];
    vtk_points->GetPoint(vtkIdType(i), xyz);
    std::copy(xyz, xyz + 3, points.point(i));
  }
  require_finite(points, path);
  points.source = path;
  points.source_type = vtk_points->GetDataType() == VTK_DOUBLE ? "float64" : "float32";
  points.column_names = {"x", "y", "z"};
  for (const std::string& warning : capture.warnings()) points.warnings.push_back(path + ": " + warning);
  if (control) control->report(1.0);
  return points;
}

void write_labeled_vtp(const std::string& path, const PointSet& points,
                       const std::vector<std::pair<std::string, std::vector<std::int32_t>>>& int_arrays) {
  const std::size_t n = points.size();
  const std::size_t kept = std::min<std::size_t>(points.dims(), 3);
  auto vtk_points = vtkSmartPointer<vtkPoints>::New();
  vtk_points->SetDataTypeToDouble();
  vtk_points->SetNumberOfPoints(vtkIdType(n));
  auto vertices = vtkSmartPointer<vtkCellArray>::New();
  for (std::size_t i = 0; i < n; ++i) {
    double xyz[3] = {0, 0, 0};
    std::copy(points.point(i), points.point(i) + kept, xyz);
    vtk_points->SetPoint(vtkIdType(i), xyz);
    const vtkIdType id = vtkIdType(i);
    vertices->InsertNextCell(1, &id);
  }
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(vtk_points);
  poly->SetVerts(vertices);
  for (const auto& [name, values] : int_arrays) {
    if (values.size() != n)
      fail(ErrorKind::Internal, path + ": array '" + name + "' has " + std::to_string(values.size()) +
                                    " values for " + std::to_string(n) + " points");
    auto array = vtkSmartPointer<vtkIntArray>::New();
    array->SetName(name.c_str());
    array->SetNumberOfValues(vtkIdType(n));
    std::copy(values.begin(), values.end(), array->GetPointer(0));
    poly->GetPointData()->AddArray(array);
  }

  MessageCapture capture;
  AtomicFile file(path);  // VTK writes the temporary by its name; renamed once complete
  auto writer = vtkSmartPointer<vtkXMLPolyDataWriter>::New();
  writer->SetFileName(file.written_path().c_str());
  writer->SetInputData(poly);
  if (writer->Write() == 0 || !capture.errors().empty())
    fail(ErrorKind::BadInput, path + ": cannot write: " +
                               (capture.errors().empty() ? std::string("VTK writer failed") : capture.first_error()));
  file.commit();
}

}  // namespace simjoin
