#include "memory_system/tier_transfer.h"

#include "memory_system/node_memory_transfer.h"
#include "memory_system/pool_transfer.h"

namespace parasight {

double tier_transfer_s(const ClusterSpec& cluster, std::int64_t devices, OffloadTarget target, double bytes,
                       PoolGathering gathering) {
    const MemorySystemSpec& memory = cluster.memory_system;
    switch (target) {
    case OffloadTarget::none: return 0.0;
    case OffloadTarget::host: return host_transfer_s(*memory.host, bytes);
    case OffloadTarget::nvme: return nvme_transfer_s(*memory.nvme, memory.host, cluster.gpus_per_node(), bytes);
    case OffloadTarget::pool: {
        MemoryPool pool = *memory.pool;
        pool.in_switch_collectives = pool.in_switch_collectives && gathering == PoolGathering::in_switch;
        return pool_transfer(pool, devices, cluster.gpus_per_node(), bytes).time_s;
    }
    }
    return 0.0;
}

}  // namespace parasight
