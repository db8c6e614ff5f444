#pragma once
// An array of `size` values in host memory, left uninitialised (every value is written before it is
// read, and zeroing gigabytes could not be cancelled) and handed to NumPy as it is (release(); NumPy
// frees it with std::free).
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <thread>

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

// Frees `array` (left empty) on a thread of its own: returning gigabytes to the system takes a good part
// of a second, which an interrupted run should not make the caller wait for. Its pages go back 64 MiB
// at a time (MADV_DONTNEED, under the process's memory map lock for reading only) before the array is
// freed: one munmap of gigabytes would hold that lock for writing throughout, and every thread that
// ends, starts or frees memory meanwhile, the caller's included, would wait for it.
template <typename T>
void free_in_background(HostArray<T>& array) {
  const std::size_t bytes = array.size() * sizeof(T);
  std::thread([values = array.release(), bytes] {
    const auto page = std::uintptr_t(::sysconf(_SC_PAGESIZE));
    const auto begin = (reinterpret_cast<std::uintptr_t>(values) + page - 1) / page * page;
    const auto end = (reinterpret_cast<std::uintptr_t>(values) + bytes) / page * page;
    constexpr std::uintptr_t kStep = std::uintptr_t(64) << 20;
    for (std::uintptr_t at = begin; at < end; at += kStep)
      ::madvise(reinterpret_cast<void*>(at), std::min(kStep, end - at), MADV_DONTNEED);
    std::free(values);
  }).detach();
  array = HostArray<T>();
}

// Deletes `object` on a thread of its own, for the same reason: a cancelled run's collected pairs.
template <typename T>
void delete_in_background(std::unique_ptr<T> object) {
  std::thread([owned = std::move(object)] {}).detach();
}

}  // namespace simjoin::python
