#pragma once
// Hands a vector to NumPy without copying it: the array owns the vector.
#include <pybind11/numpy.h>

#include <memory>
#include <vector>

namespace simjoin::python {

template <typename Element, typename Value>
pybind11::array_t<Element> owning_array(std::vector<Value>&& values, std::vector<pybind11::ssize_t> shape) {
  auto owned = std::make_unique<std::vector<Value>>(std::move(values));
  auto* data = reinterpret_cast<Element*>(owned->data());
  pybind11::capsule owner(owned.get(), [](void* vector) { delete static_cast<std::vector<Value>*>(vector); });
  owned.release();
  return pybind11::array_t<Element>(std::move(shape), data, owner);
}

}  // namespace simjoin::python
