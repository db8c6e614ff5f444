#pragma once
// How much host memory a run may still take, so that commands refuse work that cannot fit instead
// of being ended by the kernel's out-of-memory killer.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/base/run_control.hpp"

namespace simjoin {

// The smaller of the memory the system has available (MemAvailable) and what the address-space
// limit (ulimit -v) leaves this process.
std::uint64_t available_memory_bytes();

// Asks for transparent huge pages over the whole 2 MiB pages inside [data, data + bytes): a buffer
// filled in order then takes few page faults. A hint only.
void advise_huge_pages(void* data, std::size_t bytes);

// Touches a fresh buffer in order, a few MiB between cancellation checks, so that the page faults of
// filling it later in random order (the first few thousand writes would touch every page) do not
// hold a cancel.
void prefault(void* data, std::size_t bytes, const RunControl* control);

// "3.2 GiB", for messages.
std::string format_bytes(double bytes);

}  // namespace simjoin
