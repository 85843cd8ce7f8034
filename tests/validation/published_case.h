#pragma once
// One published number ParaSight is checked against (tests/validation/cases.yaml): what is measured, on which
// scenario, the published value with its source, and the relative error the project claims to stay within.

#include <filesystem>
#include <string>
#include <vector>

namespace parasight::validation {

enum class Metric {
    busbw,                  // a collective's bus bandwidth, as nccl-tests reports it
    collective_time,        // a collective's time
    iteration_time,         // a simulated iteration
    model_tflops,           // model FLOP rate per device
    hardware_tflops,        // hardware FLOP rate per device: model FLOPs plus what recomputation does again
    mfu,                    // model FLOPs utilisation
    model_states,           // weights + gradients + optimizer state on the peak device, at its peak
    layer_forward,          // layer 0's forward wall time on device 0, its collectives included
    layer_backward,         // layer 0's backward wall time on device 0, collectives and recomputation included
    optimizer_step,         // device 0's optimizer step(s), their time on its compute stream
    // Over the scenario's tp × pp × dp strategies (sweep/strategy_space.h, `degrees`): the slowest one's iteration
    // time over the fastest one's. The case also names the published fastest and slowest strategy, which ParaSight
    // must find too (a strategy-search ranking check, as DistSim §6 makes).
    strategy_speedup,
    // Whether a run fits in its devices' memory: ParaSight's peak over the capacity, against the published outcome
    // (`published: true` — it ran out of memory; false — it ran). No bound: it agrees or it does not.
    out_of_memory
};

struct PublishedCase {
    std::string id;
    std::string check;       // what is compared, in words
    std::string source;      // where the published value comes from
    std::string exercises;   // the model features the case depends on
    std::string stack;       // the framework of a published training run ("DeepSpeed"); empty for other checks
    std::filesystem::path scenario;  // relative to cases.yaml
    Metric metric = Metric::busbw;
    std::string collective_op;     // collective metrics: op, size and group as `parasight-cli collective` takes them
    std::string collective_size;
    std::string collective_group;
    std::string best_strategy;   // strategy_speedup: "tp 1 pp 8 dp 2", the published fastest
    std::string worst_strategy;  // and slowest
    double published = 0.0;  // in the metric's unit (B/s, s, FLOP/s, a fraction, bytes); out_of_memory: 1 or 0
    double bound = 0.0;      // the largest |relative error| claimed; none for out_of_memory
    int line = 0;            // in cases.yaml, for messages
};

// Reads cases.yaml; a problem is thrown as std::runtime_error "FILE:LINE:COL: message".
[[nodiscard]] std::vector<PublishedCase> read_published_cases(const std::filesystem::path& file);

[[nodiscard]] std::string metric_unit_text(Metric metric, double value);
// out_of_memory: the published outcome ("out of memory", "ran") and ParaSight's, its peak over the capacity.
[[nodiscard]] std::string published_outcome_text(double published);
[[nodiscard]] std::string memory_share_text(double peak_over_capacity);
// Whether ParaSight's peak over the capacity says what was published.
[[nodiscard]] bool outcome_agrees(double published, double peak_over_capacity);

}  // namespace parasight::validation
