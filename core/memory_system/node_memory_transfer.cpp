#include "memory_system/node_memory_transfer.h"

#include <algorithm>

namespace parasight {

double host_transfer_s(const HostMemory& host, double bytes) noexcept {
    if (bytes <= 0.0) return 0.0;
    return host.latency_s + bytes / host.link_bandwidth_Bps;
}

double nvme_transfer_s(const NvmeStorage& nvme, const std::optional<HostMemory>& host, int gpus_per_node,
                       double bytes) noexcept {
    if (bytes <= 0.0) return 0.0;
    double share_Bps = nvme.bandwidth_Bps / std::max(gpus_per_node, 1);
    if (host) share_Bps = std::min(share_Bps, host->link_bandwidth_Bps);
    return nvme.latency_s + bytes / share_Bps;
}

}  // namespace parasight
