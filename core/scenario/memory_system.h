#pragma once
// Where tensors can live beyond a GPU's own memory (the cluster's `memory_system:` section, docs/model.md "Memory
// systems"): the CPU memory and NVMe drives of each node, which ZeRO-Offload and ZeRO-Infinity spill model states
// to (Rajbhandari et al. 2021, "ZeRO-Infinity", §5), and a disaggregated memory pool of remote memory groups behind
// out-node switches (ASTRA-sim 2.0, Won et al. 2023, §III-C, "HierMem"). A GPU's own HBM is the device's memory.

#include "common/enum_names.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace parasight {

// A node's CPU memory, which each GPU reaches over its own host link (PCIe or CXL).
struct HostMemory {
    double capacity_bytes = 0.0;       // per node
    double link_bandwidth_Bps = 0.0;   // one GPU's link to it, each direction
    double latency_s = 0.0;            // per transfer
    // The node's CPU memory itself, all its channels together (0: not given): what an optimizer step run by the host's
    // CPUs streams at (parallelism.optimizer_step_on: host), shared by the node's GPUs' steps.
    double memory_bandwidth_Bps = 0.0;

    friend bool operator==(const HostMemory&, const HostMemory&) = default;
};

// A node's NVMe drives, their bandwidth shared by the node's GPUs.
struct NvmeStorage {
    double capacity_bytes = 0.0;   // per node
    double bandwidth_Bps = 0.0;    // all of a node's drives together, each direction
    double latency_s = 0.0;        // per transfer

    friend bool operator==(const NvmeStorage&, const NvmeStorage&) = default;
};

// ASTRA-sim 2.0's hierarchical memory pool: every GPU reaches its node's in-node switch over the pooled fabric; each
// node's in-node switch links to every out-node switch, and every out-node switch to every remote memory group. A
// tensor moves in chunks through the three stages as a pipeline. With in_switch_collectives the switches gather
// parameters while loading them and reduce-scatter gradients while storing them.
struct MemoryPool {
    double in_node_bandwidth_Bps = 0.0;       // pooled fabric: in-node switch ↔ one GPU
    int out_node_switches = 1;
    double node_link_bandwidth_Bps = 0.0;     // GPU-side out-node fabric: one out-node switch ↔ one node
    int remote_groups = 1;
    double remote_group_bandwidth_Bps = 0.0;  // one group's bandwidth, split evenly over its out-node switch links
    double group_capacity_bytes = 0.0;        // per remote memory group
    double chunk_bytes = 1024.0 * 1024.0;     // the unit the pool's network moves
    double latency_s = 0.0;                   // per transfer
    bool in_switch_collectives = false;

    friend bool operator==(const MemoryPool&, const MemoryPool&) = default;
};

// Where the optimizer step runs: on the device, or on the host's CPUs over states in host memory (ZeRO-Offload's
// CPU-Adam, Ren et al. 2021 §4.2).
enum class OptimizerStepPlace : std::uint8_t { device, host };
extern const std::array<EnumName<OptimizerStepPlace>, 2> optimizer_step_place_names;  // "device", "host"

// Where a kind of model state lives: on the device (none offloaded), or in one tier of the cluster's memory system.
enum class OffloadTarget : std::uint8_t { none, host, nvme, pool };
extern const std::array<EnumName<OffloadTarget>, 4> offload_target_names;  // "none", "host", "nvme", "pool"
// In a sentence: "the device", "host memory", "NVMe", "the memory pool".
[[nodiscard]] std::string_view offload_target_words(OffloadTarget target) noexcept;

struct MemorySystemSpec {
    // GPUs sharing one node's host memory, NVMe and in-node switch; 0 when not written: the innermost topology
    // dimension's size.
    int gpus_per_node = 0;
    std::optional<HostMemory> host;
    std::optional<NvmeStorage> nvme;
    std::optional<MemoryPool> pool;

    [[nodiscard]] bool empty() const noexcept { return gpus_per_node == 0 && !host && !nvme && !pool; }
    // Whether the tier is described (the device always is).
    [[nodiscard]] bool describes(OffloadTarget target) const noexcept {
        switch (target) {
        case OffloadTarget::none: return true;
        case OffloadTarget::host: return host.has_value();
        case OffloadTarget::nvme: return nvme.has_value();
        case OffloadTarget::pool: return pool.has_value();
        }
        return false;
    }
    friend bool operator==(const MemorySystemSpec&, const MemorySystemSpec&) = default;
};

}  // namespace parasight
