// A libFuzzer target for one point reader, through load_points as users reach it: each input is
// written to a file with the reader's extension (SIMJOIN_FUZZ_EXTENSION) and loaded. A reader may
// refuse an input only with Error(BadInput); any other exception, a crash, a leak, a hang or a
// memory blow-up is a finding.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "core/base/error.hpp"
#include "core/io/load_points.hpp"

namespace {

const std::string& input_path() {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/simjoin-fuzz-" + std::to_string(getpid()) +
           SIMJOIN_FUZZ_EXTENSION;
  }();
  return path;
}

void write_input(const std::uint8_t* data, std::size_t size) {
  std::FILE* file = std::fopen(input_path().c_str(), "wb");
  if (!file || (size != 0 && std::fwrite(data, 1, size, file) != size) || std::fclose(file) != 0) {
    std::perror(input_path().c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  write_input(data, size);
  try {
    const simjoin::PointSet points = simjoin::load_points(input_path());
    if (points.empty() || points.size() * points.dims() != points.coords().size()) std::abort();
  } catch (const simjoin::Error& error) {
    if (error.kind() != simjoin::ErrorKind::BadInput) {
      std::fprintf(stderr, "reader failed with an error other than BadInput: %s\n", error.what());
      std::abort();
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "reader threw %s\n", error.what());
    std::abort();
  }
  std::remove(input_path().c_str());
  return 0;
}
