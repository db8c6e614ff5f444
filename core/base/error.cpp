#include "core/base/error.hpp"

namespace simjoin {

int exit_code_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Usage:
      return 2;
    case ErrorKind::BadInput:
      return 3;
    case ErrorKind::OutOfMemory:
    case ErrorKind::OutOfSpace:
    case ErrorKind::Unavailable:
      return 4;
    case ErrorKind::Cancelled:
      return 130;
    case ErrorKind::Internal:
      break;
  }
  return 1;
}

}  // namespace simjoin
