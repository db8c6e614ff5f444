#include "core/vtkio/vtk_points.hpp"

#include <vtkCellArray.h>
#include <vtkErrorCode.h>
#include <vtkIntArray.h>
#include <vtkLogger.h>
#include <vtkObjectFactory.h>
#include <vtkOutputWindow.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkXMLPolyDataWriter.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "core/base/error.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/file_io.hpp"

namespace simjoin {

namespace {

// `text` without ANSI escape sequences (ESC [ ... letter), which VTK adds for a terminal.
std::string without_escapes(const std::string& text) {
  std::string plain;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\x1b') {
      plain += text[i];
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '[')
      for (i += 2; i < text.size() && !std::isalpha(static_cast<unsigned char>(text[i]));) ++i;
  }
  return plain;
}

// Collects VTK's error and warning texts instead of printing them to stderr.
class CapturingOutputWindow : public vtkOutputWindow {
 public:
  static CapturingOutputWindow* New();
  vtkTypeMacro(CapturingOutputWindow, vtkOutputWindow);

  void DisplayText(const char* text) override {
    const MessageTypes type = GetCurrentMessageType();
    if (type == MESSAGE_TYPE_ERROR || type == MESSAGE_TYPE_GENERIC_WARNING) errors.push_back(clean(text));
  }

  std::vector<std::string> errors;

 private:
  // "ERROR: In /src/vtkX.cxx, line 12\nvtkX (0x55d0): Could not open\n\n" -> "Could not open", one
  // plain line: without the terminal's colour escapes and the pipeline's state VTK appends.
  static std::string clean(std::string text) {
    text = without_escapes(text);
    if (text.rfind("ERROR: In ", 0) == 0 || text.rfind("Warning: In ", 0) == 0 ||
        text.rfind("Generic Warning: In ", 0) == 0) {
      const std::size_t newline = text.find('\n');
      text = newline == std::string::npos ? std::string() : text.substr(newline + 1);
    }
    if (const std::size_t tag = text.find("): "); tag != std::string::npos && text.find(" (0x") < tag)
      text = text.substr(tag + 3);
    text = text.substr(0, text.find('\n'));
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
  }
};
vtkStandardNewMacro(CapturingOutputWindow);

// Routes VTK's messages into a CapturingOutputWindow for as long as it lives. The output window is
// global, so captures are serialised.
class MessageCapture {
 public:
  // VTK's logger writes a failing pipeline's state straight to stderr, in colour: silenced meanwhile.
  MessageCapture()
      : lock_(mutex()), previous_(vtkOutputWindow::GetInstance()), verbosity_(vtkLogger::GetCurrentVerbosityCutoff()) {
    window_ = vtkSmartPointer<CapturingOutputWindow>::New();
    vtkOutputWindow::SetInstance(window_);
    vtkLogger::SetStderrVerbosity(vtkLogger::VERBOSITY_OFF);
  }
  ~MessageCapture() {
    vtkLogger::SetStderrVerbosity(verbosity_);
    vtkOutputWindow::SetInstance(previous_);
  }
  MessageCapture(const MessageCapture&) = delete;
  MessageCapture& operator=(const MessageCapture&) = delete;

  const std::vector<std::string>& errors() const { return window_->errors; }
  std::string first_error() const { return errors().empty() ? std::string() : errors().front(); }

 private:
  static std::mutex& mutex() {
    static std::mutex instance;
    return instance;
  }
  std::lock_guard<std::mutex> lock_;
  vtkSmartPointer<vtkOutputWindow> previous_;
  vtkLogger::Verbosity verbosity_;
  vtkSmartPointer<CapturingOutputWindow> window_;
};

}  // namespace

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
      fail(ErrorKind::Internal, path + ": array '" + name + "' has " + std::to_string(values.size()) + " values for " +
                                    std::to_string(n) + " points");
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
  const bool written = writer->Write() != 0;
  // VTK reports a failed write as the system's errno (ENOSPC), or as its own code for a full disk.
  const unsigned long code = writer->GetErrorCode();
  if (!written || code != vtkErrorCode::NoError || !capture.errors().empty()) {
    // A full disk is a resource running out (exit 4), as for every other output.
    if (code == vtkErrorCode::OutOfDiskSpaceError || code == ENOSPC || code == EDQUOT || code == EFBIG)
      fail(ErrorKind::OutOfSpace, path + ": write failed: " + std::strerror(ENOSPC));
    if (code != vtkErrorCode::NoError && code < vtkErrorCode::UserError)
      fail(ErrorKind::BadInput, path + ": cannot write: " + std::strerror(int(code)));
    fail(ErrorKind::BadInput,
         path + ": cannot write: " +
             (capture.errors().empty() ? std::string("VTK writer failed") : capture.first_error()));
  }
  file.commit();
}

}  // namespace simjoin
