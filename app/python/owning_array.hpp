#pragma once
// Hands values to NumPy without copying them: the array owns them.
#include <pybind11/numpy.h>

#include <memory>
#include <vector>

#include "app/python/host_array.hpp"

namespace simjoin::python {

template <typename Element, typename Value>
pybind11::array_t<Element> owning_array(std::vector<Value>&& values, std::vector<pybind11::ssize_t> shape) {
  auto owned = std::make_unique<std::vector<Value>>(std::move(values));
  auto* data = reinterpret_cast<Element*>(owned->data());
  pybind11::capsule owner(owned.get(), [](void* vector) { delete static_cast<std::vector<Value>*>(vector); });
  owned.release();
  return pybind11::array_t<Element>(std::move(shape), data, owner);
}

template <typename Element, typename Value>
pybind11::array_t<Element> owning_array(HostArray<Value>&& values, std::vector<pybind11::ssize_t> shape) {
  pybind11::capsule owner(values.data(), [](void* data) { std::free(data); });
  auto* data = reinterpret_cast<Element*>(values.release());
  return pybind11::array_t<Element>(std::move(shape), data, owner);
}

}  // namespace simjoin::python
