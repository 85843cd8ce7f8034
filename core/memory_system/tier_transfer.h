#pragma once
// One device's transfer to or from a tier of its cluster's memory system while every device moves as much, as
// offloaded model states move (parallelism.offload_optimizer): the host link, the node's NVMe share or the memory
// pool's pipeline (node_memory_transfer.h, pool_transfer.h).

#include "scenario/scenario.h"

#include <cstdint>

namespace parasight {

// Needs the tier described in cluster.memory_system (validate() refuses an offload to a tier that is not) and a
// target other than none; `devices` is the cluster's device count.
[[nodiscard]] double tier_transfer_s(const ClusterSpec& cluster, std::int64_t devices, OffloadTarget target,
                                     double bytes);

}  // namespace parasight
