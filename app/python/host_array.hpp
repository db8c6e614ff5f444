#pragma once
// An array of `size` values in host memory, left uninitialised (every value is written before it is
// read, and zeroing gigabytes could not be cancelled) and handed to NumPy as it is (release(); NumPy
// frees it with std::free).
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <new>

namespace simjoin::python {

template <typename T>
class HostArray {
 public:
  HostArray() = default;
  explicit HostArray(std::size_t size)
      : data_(static_cast<T*>(std::malloc(std::max<std::size_t>(size, 1) * sizeof(T)))), size_(size) {
    if (!data_) throw std::bad_alloc();
  }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t k) { return data_.get()[k]; }
  const T& operator[](std::size_t k) const { return data_.get()[k]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  // The caller frees the values with std::free.
  T* release() { return data_.release(); }

 private:
  struct Free {
    void operator()(T* values) const { std::free(values); }
  };
  std::unique_ptr<T, Free> data_;
  std::size_t size_ = 0;
};

}  // namespace simjoin::python
