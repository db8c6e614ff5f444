#include "app/python/array_points.hpp"

#include <cstring>

#include "core/base/error.hpp"

namespace py = pybind11;

namespace simjoin::python {

namespace {
std::string shape_text(const py::array& array) {
  std::string text = "(";
  for (py::ssize_t axis = 0; axis < array.ndim(); ++axis)
    text += (axis ? ", " : "") + std::to_string(array.shape(axis));
  return text + (array.ndim() == 1 ? ",)" : ")");
}

// Reads through the array's strides, so C order, Fortran order and views all work without a NumPy copy.
template <typename T>
void copy_values(const char* base, py::ssize_t row_stride, py::ssize_t column_stride, PointSet& points) {
  const std::size_t d = points.dims();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const char* row = base + py::ssize_t(i) * row_stride;
    double* out = points.point(i);
    for (std::size_t k = 0; k < d; ++k) {
      T value;  // memcpy: NumPy arrays need not be aligned
      std::memcpy(&value, row + py::ssize_t(k) * column_stride, sizeof value);
      out[k] = value;
    }
  }
}
}  // namespace

PointSet points_from_array(const py::array& array, const std::string& name) {
  const bool is_float32 = py::isinstance<py::array_t<float>>(array);
  if (!is_float32 && !py::isinstance<py::array_t<double>>(array))
    fail(ErrorKind::BadInput, name + " must hold float32 or float64 values, not " +
                                  std::string(py::str(array.dtype())) + "; convert it with " + name +
                                  ".astype(numpy.float64)");
  if (array.ndim() != 2)
    fail(ErrorKind::BadInput,
         name + " must be a 2-D array of n points x d dimensions; its shape is " + shape_text(array));
  PointSet points = PointSet::uninitialized(std::size_t(array.shape(0)), std::size_t(array.shape(1)));
  const auto* base = static_cast<const char*>(array.data());
  const py::ssize_t row_stride = array.strides(0), column_stride = array.strides(1);
  {
    py::gil_scoped_release release;
    if (is_float32)
      copy_values<float>(base, row_stride, column_stride, points);
    else
      copy_values<double>(base, row_stride, column_stride, points);
  }
  points.source = name;
  points.source_type = is_float32 ? "float32" : "float64";
  require_finite(points, name);
  return points;
}

}  // namespace simjoin::python
