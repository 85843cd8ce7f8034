#pragma once
// Random in-memory edits of a Scenario, as an editor or a sweep might make them — parallel degrees, `auto`, layers,
// batch sizes, topology sizes and links, strategy-tree overrides, schedules, model shape — with values that are
// often wrong (0, negative, not a divisor, NaN, infinite, far too large). Choices come from `pick(n)`, a number in
// [0, n): the Qt test draws them from a seeded generator, the fuzzer from its input bytes.

#include "scenario/scenario.h"

#include <array>
#include <cstdint>
#include <limits>
#include <string>

namespace parasight::testing {

template <class Pick>
int pick_count(Pick& pick) {
    static constexpr std::array<int, 18> values{0, 1, 1, 2, 2, 3, 4, 4, 5, 6, 8, 12, 16, 32, 64, 128, -1, 10'000'001};
    return values[pick(values.size())];
}

template <class Pick>
double pick_rate(Pick& pick, double typical) {
    const std::array<double, 9> values{typical,
                                       typical * 2.0,
                                       typical / 1000.0,
                                       0.0,
                                       -typical,
                                       1.0,
                                       1e300,
                                       std::numeric_limits<double>::quiet_NaN(),
                                       std::numeric_limits<double>::infinity()};
    return values[pick(values.size())];
}

template <class Pick>
std::string pick_node(Pick& pick) {
    static constexpr std::array<const char*, 9> kinds{"stage", "layer", "layer", "layer", "layer",
                                                      "layer", "stage", "stage", "block"};
    static constexpr std::array<const char*, 6> suffixes{"", ".attention", ".mlp", ".attention.qkv",
                                                         ".mlp.activation", ".attention.softmax_dropout"};
    const std::string kind = kinds[pick(kinds.size())];
    std::string node = kind + "[" + std::to_string(pick(100)) + "]";
    if (kind == "layer") node += suffixes[pick(suffixes.size())];
    return node;
}

template <class Pick>
void apply_random_edit(Scenario& s, Pick& pick) {
    ParallelismSpec& p = s.parallelism;
    switch (pick(24)) {
    case 0: p.tp = pick_count(pick); break;
    case 1: p.pp = pick_count(pick); break;
    case 2: p.dp = pick_count(pick); break;
    case 3: p.cp = pick_count(pick); break;
    case 4: p.ep = pick_count(pick); break;
    case 5: {
        const std::size_t axis = pick(parallel_axis_names.size() + 1);
        if (axis == parallel_axis_names.size()) {
            p.derived_axis.reset();
        } else {
            p.derived_axis = parallel_axis_names[axis].value;
        }
        break;
    }
    case 6: s.model.layers = pick_count(pick) * (pick(2) == 0 ? 1 : 6); break;
    case 7: s.training.global_batch = static_cast<std::int64_t>(pick_count(pick)) * (pick(2) == 0 ? 1 : 96); break;
    case 8: s.training.micro_batch = pick_count(pick); break;
    case 9:
        if (!s.cluster.topology.empty()) {
            s.cluster.topology[pick(s.cluster.topology.size())].size = pick_count(pick);
        }
        break;
    case 10:
        if (pick(2) == 0 && !s.cluster.topology.empty()) {
            s.cluster.topology.pop_back();
        } else {
            Dimension dimension;
            dimension.kind = dimension_kind_names[pick(dimension_kind_names.size())].value;
            dimension.size = pick_count(pick);
            dimension.bandwidth_Bps = pick_rate(pick, 100e9);
            dimension.latency_s = pick_rate(pick, 1e-6);
            s.cluster.topology.push_back(dimension);
        }
        break;
    case 11: {
        StrategyOverride entry;
        entry.node = pick_node(pick);
        if (pick(2) == 0) entry.layers = pick_count(pick);
        if (pick(2) == 0) entry.recompute = recompute_names[pick(recompute_names.size())].value;
        if (pick(4) == 0) entry.micro_batches = pick_count(pick);
        if (pick(3) == 0) entry.max_ongoing_micro_batches = pick_count(pick);
        s.strategy_tree.push_back(entry);
        break;
    }
    case 12:
        p.schedule = schedule_names[pick(schedule_names.size())].value;
        p.virtual_stages = pick_count(pick);
        break;
    case 13:
        p.zero = pick_count(pick) % 5;
        if (pick(3) == 0) p.zero1_all_reduce = pick(2) == 0;  // meaningful at ZeRO-1 only, refused elsewhere
        break;
    case 14: p.recompute = recompute_names[pick(recompute_names.size())].value; break;
    case 15:
        switch (pick(4)) {
        case 0: s.model.seq_len = pick_count(pick) * 128; break;
        case 1: s.model.heads = pick_count(pick); break;
        case 2: s.model.kv_heads = pick_count(pick); break;
        default: s.model.hidden = pick_count(pick) * 64; break;
        }
        break;
    case 16:
        if (pick(2) == 0 && !p.mapping.empty()) {
            p.mapping.pop_back();
        } else {
            p.mapping.push_back(parallel_axis_names[pick(parallel_axis_names.size())].value);
        }
        break;
    case 17:
        if (!s.cluster.topology.empty()) {
            Dimension& dimension = s.cluster.topology[pick(s.cluster.topology.size())];
            dimension.bandwidth_Bps = pick_rate(pick, dimension.bandwidth_Bps);
            dimension.latency_s = pick_rate(pick, dimension.latency_s);
        }
        break;
    case 18:
        s.model.experts = pick_count(pick);
        s.model.experts_per_token = pick_count(pick);
        break;
    case 19:
        s.simulation.collective_chunks = pick_count(pick);
        s.simulation.overlap_slowdown = pick_rate(pick, 0.1);
        break;
    case 20:
        // Switches: sequence parallelism, the causal mask, eager kernels; the optimizer's kernels.
        switch (pick(4)) {
        case 0: p.sequence_parallel = !p.sequence_parallel; break;
        case 1: s.model.causal_attention = !s.model.causal_attention; break;
        case 2:
            s.training.optimizer_implementation =
                optimizer_implementation_names[pick(optimizer_implementation_names.size())].value;
            break;
        default: s.training.eager_kernels = !s.training.eager_kernels; break;
        }
        break;
    case 21:
        switch (pick(3)) {
        case 0: {
            CollectiveDelay delay;
            if (pick(2) == 0) delay.group = parallel_axis_names[pick(parallel_axis_names.size())].value;
            if (pick(2) == 0) delay.operation = comm_operation_names[pick(comm_operation_names.size())].value;
            if (pick(3) == 0) delay.layers = LayerRange{pick_count(pick), pick_count(pick)};
            delay.delay_s = pick_rate(pick, 1e-3);
            s.what_if.collective_delays.push_back(delay);
            break;
        }
        case 1: {
            SlowDevices slow;
            for (int n = pick_count(pick) % 4; n > 0; --n) slow.npus.push_back(pick_count(pick));
            slow.compute_time_factor = pick_rate(pick, 1.5);
            s.what_if.slow_devices.push_back(slow);
            break;
        }
        default: {
            DegradedLinks links;
            if (pick(2) == 0) links.dimension = pick_count(pick);
            for (int n = pick_count(pick) % 4; n > 0; --n) links.npus.push_back(pick_count(pick));
            links.bandwidth_factor = pick_rate(pick, 0.5);
            s.what_if.degraded_links.push_back(links);
            break;
        }
        }
        break;
    case 22:
        // Memory beyond the devices, and the optimizer states, gradients and parameters offloaded to any tier (described or not).
        switch (pick(3)) {
        case 0:
            s.cluster.memory_system.host =
                HostMemory{pick_rate(pick, 1e12), pick_rate(pick, 25e9), pick_rate(pick, 1e-5)};
            break;
        case 1: {
            MemoryPool pool;
            pool.in_node_bandwidth_Bps = pick_rate(pick, 256e9);
            pool.out_node_switches = pick_count(pick);
            pool.node_link_bandwidth_Bps = pick_rate(pick, 100e9);
            pool.remote_groups = pick_count(pick);
            pool.remote_group_bandwidth_Bps = pick_rate(pick, 100e9);
            pool.group_capacity_bytes = pick_rate(pick, 1e12);
            pool.chunk_bytes = pick_rate(pick, 1024.0 * 1024.0);
            pool.in_switch_collectives = pick(2) == 0;
            s.cluster.memory_system.pool = pool;
            break;
        }
        default: s.cluster.memory_system.gpus_per_node = pick_count(pick); break;
        }
        p.offload_optimizer = offload_target_names[pick(offload_target_names.size())].value;
        // Parameters too, with any ZeRO stage (validate refuses all but 3).
        if (pick(2) == 0) {
            p.offload_parameters = offload_target_names[pick(offload_target_names.size())].value;
            if (pick(2) == 0) p.zero = 3;
        }
        if (pick(2) == 0) {
            p.offload_gradients = offload_target_names[pick(offload_target_names.size())].value;
            if (pick(2) == 0) p.zero = 2 + pick(2);
        }
        if (pick(2) == 0) p.offload_sub_group = static_cast<std::int64_t>(pick_count(pick)) * 10'000'000;
        break;
    default:
        s.cluster.device.memory_bytes = pick_rate(pick, s.cluster.device.memory_bytes);
        s.cluster.device.peak_flops[s.training.dtype] = pick_rate(pick, 300e12);
        break;
    }
}

}  // namespace parasight::testing
