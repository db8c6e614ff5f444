#pragma once
#include <cstdint>
#include <vector>

#include "core/join/run_stats.hpp"

namespace simjoin::ui {

// Points per partition as joined: own members plus the copies placed there. Entries naming a
// partition >= k are ignored.
std::vector<std::uint64_t> partition_sizes(const PartitionStructure& partitions);

}  // namespace simjoin::ui
