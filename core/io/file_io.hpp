#pragma once
// Whole-file reads and checked writes shared by the readers and writers. Every failure is an Error
// naming the path.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/run_control.hpp"

namespace simjoin {

// Reads the whole file into memory in large chunks, honouring cancel. Throws Error(BadInput) when the
// file is missing, a directory or unreadable.
std::string read_file_bytes(const std::string& path, RunControl* control = nullptr);

// The extension of `path` in lower case, with its dot ("data/A.CSV" -> ".csv"); empty when none.
std::string lower_extension(const std::string& path);

// A binary output file. Open, write or close failures (unwritable path, disk full) throw
// Error(Usage) naming the path and the system's reason.
class OutputFile {
 public:
  explicit OutputFile(const std::string& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(const void* data, std::size_t bytes);
  void write(const std::string& text) { write(text.data(), text.size()); }
  // Moves to an absolute byte offset, e.g. to rewrite a header once the data is known.
  void seek(std::uint64_t offset);
  // Flushes and closes; throws when the data could not be written completely.
  void close();
  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail_io(const std::string& what) const;

  std::string path_;
  std::FILE* file_ = nullptr;
};

}  // namespace simjoin
