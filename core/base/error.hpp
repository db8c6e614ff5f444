#pragma once
// Errors that cross the engine and I/O boundaries carry a kind, so that the CLI can map them to exit
// codes and the GUI can decide whether to fall back (e.g. GPU out of memory -> CPU).
#include <stdexcept>
#include <string>

namespace simjoin {

enum class ErrorKind {
  Usage,        // bad parameters (exit 2)
  BadInput,     // malformed or unsupported input data (exit 3)
  OutOfMemory,  // host or device memory exhausted (exit 4)
  OutOfSpace,   // a file system full or over quota (exit 4)
  Unavailable,  // engine cannot run here, e.g. no GPU (exit 4)
  Cancelled,    // user cancelled (exit 130)
  Internal,     // a bug (exit 1)
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

[[noreturn]] inline void fail(ErrorKind kind, const std::string& message) { throw Error(kind, message); }

// Process exit code for an error kind, as documented in the README.
int exit_code_for(ErrorKind kind);

}  // namespace simjoin
