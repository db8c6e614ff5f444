#include "ui/run/partition_sizes.hpp"

namespace simjoin::ui {

std::vector<std::uint64_t> partition_sizes(const PartitionStructure& partitions) {
  std::vector<std::uint64_t> sizes(partitions.k, 0);
  for (const auto* list : {&partitions.membership, &partitions.replica_partition})
    for (std::uint32_t p : *list)
      if (p < sizes.size()) ++sizes[p];
  return sizes;
}

}  // namespace simjoin::ui
