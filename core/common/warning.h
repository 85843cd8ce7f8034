#pragma once
// A warning about a simulated run as a value: what happened (the code), where (the subject) and its numbers, so that
// a view can mark the node or device it is about and a report can word it (export/warning_text.h). The compiler
// makes some and the analysis others, so it lives below both.

#include "common/enum_names.h"

#include <array>
#include <cstdint>
#include <string>

namespace parasight {

enum class WarningCode : std::uint8_t {
    in_flight_capped,             // a 1F1B stage keeps fewer micro-batches in flight than it would: micro_batches
    recomputation_frees_nothing,  // recomputing an operation drops none of its outputs: operation, layers, first_layer
    out_of_memory,  // a device needs more than its memory: npu, needed_bytes, capacity_bytes, tensor, time_s
    // max_ongoing_micro_batches on a 1F1B stage above what the schedule keeps in flight there anyway, so it changes
    // nothing: requested_micro_batches, micro_batches (the schedule's own)
    in_flight_cap_without_effect,
    // an iteration longer than a year, which no real run has: a unit is likely wrong (a bandwidth in B/s instead of
    // GB/s, a measured time in s instead of ms): time_s
    implausible_iteration_time,
    // a what-if collective delay that matched no communication, so it changed nothing: the subject is the rule
    // ("what_if.collective_delays[0]")
    what_if_matches_nothing,
    // a sweep point not simulated: the closed-form bound of its stage's model states and activations in flight
    // (compile/memory_lower_bound.h) exceeds a device's memory: stage, needed_bytes, model_state_bytes,
    // activation_bytes, runtime_bytes, micro_batches (in flight), capacity_bytes
    memory_bound_exceeded,
    // offloaded model states (optimizer states, parameter shards) need more than the tier they are offloaded to holds: subject (the tier,
    // "cluster.memory_system.host"), npu (host and NVMe: the first NPU of the node that needs the most), needed_bytes,
    // capacity_bytes (a node's; the pool's: all its groups')
    offload_over_capacity,
    // the host's kernel launches, not the GPU, bound the transformer layers' passes (docs/model.md, "Kernel launch
    // floor"): subject (the launch time's setting, "cluster.device.kernel_launch" or ".graph_kernel_launch"), layers,
    // time_s (a layer's forward and backward as launched, one micro-batch), gpu_time_s (the GPU's time for them)
    host_bound_layers,
};
// The codes as the results database stores them (run_warnings.code, docs/store.md).
inline constexpr std::array<EnumName<WarningCode>, 9> warning_code_names{
    {{WarningCode::in_flight_capped, "in_flight_capped"},
     {WarningCode::recomputation_frees_nothing, "recomputation_frees_nothing"},
     {WarningCode::out_of_memory, "out_of_memory"},
     {WarningCode::in_flight_cap_without_effect, "in_flight_cap_without_effect"},
     {WarningCode::implausible_iteration_time, "implausible_iteration_time"},
     {WarningCode::what_if_matches_nothing, "what_if_matches_nothing"},
     {WarningCode::memory_bound_exceeded, "memory_bound_exceeded"},
     {WarningCode::offload_over_capacity, "offload_over_capacity"},
     {WarningCode::host_bound_layers, "host_bound_layers"}}};

struct Warning {
    WarningCode code = WarningCode::in_flight_capped;
    // A strategy-tree node as scenario files name it ("stage[2]", "layer[5].mlp.activation": strategy/node_path.h
    // reads it back) or a device ("NPU 5").
    std::string subject;
    int micro_batches = 0;        // in_flight_capped, in_flight_cap_without_effect: the most the stage keeps in flight;
                                  // memory_bound_exceeded: the micro-batches the bound counts in flight
    int requested_micro_batches = 0;  // in_flight_cap_without_effect: the strategy tree's cap
    std::string operation;        // recomputation_frees_nothing: the operation within its block, "mlp.activation"
    int layers = 0;               // recomputation_frees_nothing: how many layers recompute it; host_bound_layers: how
                                  // many the host bounds
    int first_layer = 0;          // recomputation_frees_nothing: the first of them, the subject's layer
    std::int64_t npu = 0;         // out_of_memory: the device with the highest peak; offload_over_capacity: the node's
                                  // first NPU
    double needed_bytes = 0.0;    // out_of_memory: its peak; memory_bound_exceeded: the bound; offload_over_capacity:
                                  // the offloaded states
    double capacity_bytes = 0.0;  // out_of_memory, memory_bound_exceeded: a device's memory; offload_over_capacity:
                                  // the tier's
    std::string tensor;           // out_of_memory: what the allocation that first crossed the capacity was for
    double time_s = 0.0;          // out_of_memory: when that allocation was made; implausible_iteration_time: the
                                  // iteration time; host_bound_layers: a layer's forward and backward as launched
    double gpu_time_s = 0.0;      // host_bound_layers: the GPU's own time for them
    int stage = 0;                    // memory_bound_exceeded: the stage that needs the most
    double model_state_bytes = 0.0;   // memory_bound_exceeded: its weights, gradients and optimizer state
    double activation_bytes = 0.0;    // memory_bound_exceeded: its activations for micro_batches in flight
    double runtime_bytes = 0.0;       // memory_bound_exceeded: the runtime's own (cluster.device.context_memory)

    friend bool operator==(const Warning&, const Warning&) = default;
};

}  // namespace parasight
