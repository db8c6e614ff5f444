#pragma once
// NumPy arrays as the engines' point sets.
#include <pybind11/numpy.h>

#include <string>

#include "core/points/point_set.hpp"

namespace simjoin::python {

// The rows of a 2-D float32 or float64 array, in any memory order, as float64 points (the engines
// take the values in float64, so this is always a copy). Throws Error(BadInput) for another shape or
// type, or a coordinate that is not finite; `name` ("X", "Y") heads the message.
PointSet points_from_array(const pybind11::array& array, const std::string& name);

}  // namespace simjoin::python
