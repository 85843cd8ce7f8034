#pragma once
// One device's transfer to or from a tier of its cluster's memory system while every device moves as much, as
// offloaded model states move (parallelism.offload_optimizer, offload_parameters): the host link, the node's NVMe
// share or the memory pool's pipeline (node_memory_transfer.h, pool_transfer.h).

#include "scenario/scenario.h"

#include <cstdint>

namespace parasight {

// What the pool's switches do with a transfer: nothing — each device moves its own bytes (optimizer states, an
// updated parameter shard stored back) — or, where the pool has in_switch_collectives, gather what the devices load
// into the whole tensor every device receives (a ZeRO-3 layer's shards). Host memory and NVMe move the bytes either
// way.
enum class PoolGathering : std::uint8_t { own_bytes, in_switch };

// Needs the tier described in cluster.memory_system (validate() refuses an offload to a tier that is not) and a
// target other than none; `devices` is the cluster's device count.
[[nodiscard]] double tier_transfer_s(const ClusterSpec& cluster, std::int64_t devices, OffloadTarget target,
                                     double bytes, PoolGathering gathering);

}  // namespace parasight
