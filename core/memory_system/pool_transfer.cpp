#include "memory_system/pool_transfer.h"

#include <algorithm>
#include <cmath>

namespace parasight {
namespace {

// The pipeline of `chunks` chunks (the last one a part when chunks is not whole) through stages taking
// `chunk_time_s` each a whole chunk: step k moves chunk k − s on stage s, and lasts as long as its slowest move.
double pipeline_s(double chunks, const std::array<double, 3>& chunk_time_s) {
    if (chunks <= 0.0) return 0.0;
    const auto whole = static_cast<std::int64_t>(std::floor(chunks));
    const double part = chunks - static_cast<double>(whole);
    const std::int64_t count = whole + (part > 0.0 ? 1 : 0);  // chunks moved
    const auto chunk_share = [&](std::int64_t i) { return (i == count - 1 && part > 0.0) ? part : 1.0; };
    const auto step_s = [&](std::int64_t step) {
        double longest = 0.0;
        for (std::int64_t stage = 0; stage < 3; ++stage) {
            const std::int64_t chunk = step - stage;
            if (chunk >= 0 && chunk < count) longest = std::max(longest, chunk_time_s[stage] * chunk_share(chunk));
        }
        return longest;
    };
    // Steps 3 … count − 2 move three whole chunks each; the first three and the last three are summed one by one.
    const std::int64_t last_step = count + 1;
    double total = 0.0;
    for (std::int64_t step = 0; step <= last_step; ++step) {
        if (step >= 3 && step <= count - 2) {
            const std::int64_t middle = count - 4;  // steps 3 … count − 2
            total += static_cast<double>(middle) *
                     std::max({chunk_time_s[0], chunk_time_s[1], chunk_time_s[2]});
            step = count - 2;
            continue;
        }
        total += step_s(step);
    }
    return total;
}

}  // namespace

std::string_view pool_stage_name(PoolStage stage) noexcept {
    switch (stage) {
    case PoolStage::group_to_switch: return "remote group → out-node switch";
    case PoolStage::switch_to_node: return "out-node switch → node";
    case PoolStage::node_to_gpu: return "in-node switch → GPU";
    }
    return "";
}

PoolTransfer pool_transfer(const MemoryPool& pool, std::int64_t gpus, int gpus_per_node, double bytes_per_gpu) {
    const double G = static_cast<double>(gpus);
    const double nodes = G / gpus_per_node;
    const double R = pool.remote_groups;
    const double S = pool.out_node_switches;
    const double chunk = pool.chunk_bytes;
    const double W = bytes_per_gpu;
    // Won et al. 2023 §III-C: G·W leaves the pool, R·S links of W·G/(R·S) each (the 256-GPU example: 8W per
    // group–switch link with 8 groups and 4 switches).
    const double group_link_bytes = W * G / (R * S);
    const double group_link_Bps = pool.remote_group_bandwidth_Bps / S;
    PoolTransfer transfer;
    transfer.chunks = group_link_bytes / chunk;
    if (pool.in_switch_collectives) {
        // Each out-node switch gathers what the R groups send it (W·G/S) and forwards all of it to every node; each
        // in-node switch then holds every switch's part, the whole G·W, and sends it to each of its GPUs.
        transfer.links[1] = {PoolStage::switch_to_node, W * G / S, pool.node_link_bandwidth_Bps,
                             R * chunk / pool.node_link_bandwidth_Bps};
        transfer.links[2] = {PoolStage::node_to_gpu, W * G, pool.in_node_bandwidth_Bps,
                             R * S * chunk / pool.in_node_bandwidth_Bps};
        transfer.received_bytes_per_gpu = W * G;
    } else {
        // A node's g GPUs need g·W, spread over its S switch links (4W each in the example: 16 GPUs, 4 switches);
        // each GPU receives its own W.
        transfer.links[1] = {PoolStage::switch_to_node, W * gpus_per_node / S, pool.node_link_bandwidth_Bps,
                             R * chunk / (nodes * pool.node_link_bandwidth_Bps)};
        transfer.links[2] = {PoolStage::node_to_gpu, W, pool.in_node_bandwidth_Bps,
                             R * S * chunk / (G * pool.in_node_bandwidth_Bps)};
        transfer.received_bytes_per_gpu = W;
    }
    transfer.links[0] = {PoolStage::group_to_switch, group_link_bytes, group_link_Bps, chunk / group_link_Bps};
    transfer.time_s = (W > 0.0 ? pool.latency_s : 0.0) +
                      pipeline_s(transfer.chunks, {transfer.links[0].chunk_time_s, transfer.links[1].chunk_time_s,
                                                   transfer.links[2].chunk_time_s});
    return transfer;
}

}  // namespace parasight
