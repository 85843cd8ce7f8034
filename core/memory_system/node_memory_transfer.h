#pragma once
// Transfers between a GPU and its node's CPU memory or NVMe drives, as ZeRO-Offload and ZeRO-Infinity move model
// states (Rajbhandari et al. 2021, §5 and §6; docs/model.md "Memory systems"): each GPU over its own host link; the
// NVMe drives' bandwidth shared by the node's GPUs, which all move their partitions at once (ZeRO-Infinity's
// bandwidth-centric partitioning), the data passing through CPU memory and the GPU's host link.

#include "scenario/memory_system.h"

#include <optional>

namespace parasight {

// One GPU moving `bytes` to or from its node's CPU memory.
[[nodiscard]] double host_transfer_s(const HostMemory& host, double bytes) noexcept;

// One GPU moving `bytes` to or from its node's NVMe while each of the node's `gpus_per_node` GPUs moves as much: at
// the drives' bandwidth / gpus_per_node, or the GPU's host link when that is slower.
[[nodiscard]] double nvme_transfer_s(const NvmeStorage& nvme, const std::optional<HostMemory>& host,
                                     int gpus_per_node, double bytes) noexcept;

}  // namespace parasight
