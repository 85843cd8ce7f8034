#pragma once
// A transfer between the GPUs and ASTRA-sim 2.0's hierarchical memory pool (Won et al. 2023, §III-C, remote memory
// model and in-switch collective communication; docs/model.md "Memory systems"). Every GPU of the cluster loads (or
// stores) its tensor at once; the bytes spread evenly over the pool's links, and move through its three stages —
// remote group → out-node switch → node → GPU — in chunks, as a pipeline whose every stage lasts as long as the
// slowest chunk transfer in it.

#include "scenario/memory_system.h"

#include <array>
#include <cstdint>
#include <string_view>

namespace parasight {

// The pool's three stages, from the memory to the GPU (a store runs them in reverse, on the links' other
// direction, with the same loads).
enum class PoolStage : std::uint8_t { group_to_switch, switch_to_node, node_to_gpu };
[[nodiscard]] std::string_view pool_stage_name(PoolStage stage) noexcept;  // "remote group → out-node switch", …

// What one transfer puts on one link of a stage.
struct PoolLinkLoad {
    PoolStage stage = PoolStage::group_to_switch;
    double bytes = 0.0;            // on one link of the stage, over the whole transfer
    double bandwidth_Bps = 0.0;    // one link's
    double chunk_time_s = 0.0;     // one pipeline step on that link (the seed's TX_rem2outSW, TX_outSW2inSW, TX_inSW2GPU)
};

struct PoolTransfer {
    std::array<PoolLinkLoad, 3> links{};  // in PoolStage order
    double chunks = 0.0;       // pipeline steps: the bytes on one group–switch link / the chunk (may end in a part)
    double received_bytes_per_gpu = 0.0;  // its own tensor, or with in-switch gathering every GPU's
    double time_s = 0.0;       // latency + the pipeline's critical path
};

// Every one of `gpus` GPUs, `gpus_per_node` to a node, moves `bytes_per_gpu` to or from the pool. With
// pool.in_switch_collectives the switches gather what the GPUs load (each GPU receives all gpus × bytes_per_gpu) and
// reduce-scatter what they store. Needs gpus > 0, gpus_per_node dividing gpus, bytes_per_gpu ≥ 0.
[[nodiscard]] PoolTransfer pool_transfer(const MemoryPool& pool, std::int64_t gpus, int gpus_per_node,
                                         double bytes_per_gpu);

}  // namespace parasight
