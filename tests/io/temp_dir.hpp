#pragma once
// Test support for the I/O tests: a fresh temporary directory per test, and checks on error texts.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/base/error.hpp"

namespace simjoin::testing {

// Each test gets its own empty directory, removed afterwards.
class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  // A path inside the test's directory.
  std::string path(const std::string& name) const;
  // Writes `content` to a file in the test's directory and returns its path.
  std::string write_file(const std::string& name, const std::string& content) const;

 private:
  std::filesystem::path dir_;
};

std::string read_whole_file(const std::string& path);

// Success when `action` throws an Error of `kind` whose message contains every string in `parts`.
::testing::AssertionResult throws_error(const std::function<void()>& action, ErrorKind kind,
                                        const std::vector<std::string>& parts);

}  // namespace simjoin::testing
