#include "tests/io/temp_dir.hpp"

#include <fstream>
#include <random>
#include <sstream>

namespace simjoin::testing {

void TempDirTest::SetUp() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::random_device device;
  dir_ = std::filesystem::temp_directory_path() /
         ("simjoin-io-" + std::string(info->name()) + "-" + std::to_string(device()));
  std::filesystem::create_directories(dir_);
}

void TempDirTest::TearDown() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::string TempDirTest::path(const std::string& name) const { return (dir_ / name).string(); }

std::string TempDirTest::write_file(const std::string& name, const std::string& content) const {
  const std::string file = path(name);
  std::ofstream(file, std::ios::binary) << content;
  return file;
}

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

::testing::AssertionResult throws_error(const std::function<void()>& action, ErrorKind kind,
                                        const std::vector<std::string>& parts) {
  try {
    action();
  } catch (const Error& error) {
    if (error.kind() != kind)
      return ::testing::AssertionFailure() << "wrong error kind " << int(error.kind()) << ": " << error.what();
    for (const std::string& part : parts)
      if (std::string(error.what()).find(part) == std::string::npos)
        return ::testing::AssertionFailure() << "message lacks '" << part << "': " << error.what();
    return ::testing::AssertionSuccess() << error.what();
  }
  return ::testing::AssertionFailure() << "no Error thrown";
}

}  // namespace simjoin::testing
