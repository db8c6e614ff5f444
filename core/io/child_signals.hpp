#pragma once
// Attributes for posix_spawn under which a helper process starts with no signal blocked. The
// project's programs block the cancel signals in every thread (core/io/cancel_signals.hpp), and a
// child inherits its parent thread's mask across exec: unchanged, it would sit out Ctrl-C and a
// plain `kill`, and outlive a cancelled run.
#include <spawn.h>

#include <csignal>

namespace simjoin {

class DefaultSignalsSpawn {
 public:
  DefaultSignalsSpawn() {
    posix_spawnattr_init(&attributes_);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes_, &none);
    posix_spawnattr_setflags(&attributes_, POSIX_SPAWN_SETSIGMASK);
  }
  ~DefaultSignalsSpawn() { posix_spawnattr_destroy(&attributes_); }
  DefaultSignalsSpawn(const DefaultSignalsSpawn&) = delete;
  DefaultSignalsSpawn& operator=(const DefaultSignalsSpawn&) = delete;

  const posix_spawnattr_t* get() const { return &attributes_; }

 private:
  posix_spawnattr_t attributes_;
};

}  // namespace simjoin
