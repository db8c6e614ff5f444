#pragma once
// Test support for the point readers' tests: a file written in the test's directory must be refused.
#include <string>
#include <vector>

#include "core/io/load_points.hpp"
#include "tests/io/temp_dir.hpp"

namespace simjoin::testing {

class ReaderTest : public TempDirTest {
 protected:
  // Success when loading `content`, written as `name`, throws Error(BadInput) whose message names the
  // file and contains every string in `parts`.
  ::testing::AssertionResult rejects(const std::string& name, const std::string& content,
                                     std::vector<std::string> parts) {
    const std::string file = write_file(name, content);
    parts.push_back(file);
    return throws_error([&] { load_points(file); }, ErrorKind::BadInput, parts);
  }
};

}  // namespace simjoin::testing
