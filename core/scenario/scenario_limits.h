#pragma once
// The values a Scenario may hold: one table that the YAML readers and validate() both check against, so that a
// scenario built in memory is held to exactly the limits of one read from a file (docs/scenario-reference.md lists
// them for users). Bounds are far past any real model or cluster; they exist so that arithmetic cannot overflow and
// absurd inputs are refused instead of simulated.

#include "units/quantity.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace parasight {

// What a whole number may be; values outside are errors that say the range.
struct IntegerRange {
    std::int64_t min = 1;
    std::int64_t max = 1'000'000'000;
};

// What a quantity with a unit may be.
struct QuantityRange {
    double min = 0.0;
    bool min_allowed = false;  // whether `min` itself is allowed (latency 0 is, bandwidth 0 is not)
    double max = 0.0;
};

// What a plain number (a fraction, a factor) may be; both ends allowed.
struct NumberRange {
    double min = 0.0;
    double max = 0.0;
};

namespace limits {

inline constexpr std::int64_t max_devices = 10'000'000;
inline constexpr std::size_t max_topology_dimensions = 16;
inline constexpr std::size_t max_strategy_tree_entries = 100'000;
inline constexpr std::int64_t max_cnn_layers = 10'000;  // after repeats

// model (transformer)
inline constexpr IntegerRange layers{1, 10'000};
inline constexpr IntegerRange decoder_layers{0, 10'000};
inline constexpr IntegerRange hidden{1, 1'000'000};
inline constexpr IntegerRange heads{1, 100'000};
inline constexpr IntegerRange ffn_hidden{1, 10'000'000};
inline constexpr IntegerRange seq_len{1, 100'000'000};
inline constexpr IntegerRange vocab{1, 100'000'000};
inline constexpr IntegerRange experts{1, 100'000};
inline constexpr NumberRange capacity_factor{0.1, 100.0};
// model (CNN)
inline constexpr IntegerRange input_extent{1, 100'000};  // channels, height, width
inline constexpr IntegerRange filters{1, 1'000'000};
inline constexpr IntegerRange kernel{1, 1000};
inline constexpr IntegerRange stride{1, 1000};
inline constexpr IntegerRange padding{0, 1000};
inline constexpr IntegerRange fc_outputs{1, 100'000'000};
inline constexpr IntegerRange block_repeat{1, 10'000};
// training
inline constexpr IntegerRange global_batch{1, 1'000'000'000};
inline constexpr IntegerRange micro_batch{1, 10'000'000};
inline constexpr IntegerRange dataset_samples{1, 1'000'000'000'000};
// cluster
// Rates have a physical floor far below any real hardware (1 MFLOP/s, 1 MB/s, a 1 kB/s link): a rate near zero (a
// typo, 1e-320 GB/s) would make times infinite, which no result can say.
inline constexpr QuantityRange peak_flops{1e6, true, 1e19};
inline constexpr QuantityRange memory_bytes{0.0, false, 1125899906842624.0};  // 1 PiB
inline constexpr QuantityRange memory_bandwidth{1e6, true, 1e15};             // 1 MB/s to 1 PB/s
inline constexpr QuantityRange collective_buffer = memory_bytes;               // a collective on one device's memory
inline constexpr NumberRange matmul_efficiency{0.01, 1.0};
inline constexpr NumberRange matmul_half_dim{0.0, 1e6};
inline constexpr IntegerRange streaming_multiprocessors{1, 100'000};
inline constexpr NumberRange memory_efficiency{0.01, 1.0};
inline constexpr NumberRange attention_efficiency{0.01, 1.0};
inline constexpr NumberRange fp8_matmul_efficiency{0.01, 1.0};
inline constexpr QuantityRange kernel_launch{0.0, true, 1e-3};  // 0 (none known) to 1 ms
inline constexpr QuantityRange context_memory{0.0, true, 17179869184.0};  // 0 (none known) to 16 GiB
inline constexpr IntegerRange dimension_size{1, max_devices};
inline constexpr QuantityRange link_bandwidth{1e3, true, 1e15};   // 1 kB/s to 1 PB/s
inline constexpr QuantityRange link_latency{0.0, true, 1.0};       // 1 s
inline constexpr NumberRange link_efficiency{0.01, 1.0};
// cluster.memory_system: capacities, bandwidths and latencies as the device's and the links'
inline constexpr IntegerRange gpus_per_node{1, max_devices};
inline constexpr QuantityRange tier_capacity = memory_bytes;
inline constexpr QuantityRange tier_bandwidth = link_bandwidth;
inline constexpr QuantityRange tier_latency = link_latency;
inline constexpr IntegerRange out_node_switches{1, 100'000};
inline constexpr IntegerRange remote_groups{1, 1'000'000};
inline constexpr QuantityRange pool_chunk{512.0, true, 1024.0 * 1024 * 1024};  // 512 B to 1 GiB
// parallelism
inline constexpr IntegerRange degree{1, max_devices};
inline constexpr IntegerRange zero_stage{0, 3};
inline constexpr IntegerRange virtual_stages{1, 1000};
inline constexpr IntegerRange micro_batch_group{1, 1'000'000};
inline constexpr IntegerRange zero3_prefetch_layers{0, 10'000};
inline constexpr IntegerRange offload_sub_group{1'000'000, 10'000'000'000'000};  // parameters: tiles of 10^6 and up
inline constexpr std::int64_t default_offload_sub_group = 1'000'000'000;  // DeepSpeed's sub_group_size
// strategy tree
inline constexpr IntegerRange stage_layers{1, 10'000};
inline constexpr IntegerRange node_micro_batches{1, 1'000'000};
// simulation
inline constexpr NumberRange overlap_slowdown{0.0, 10.0};
inline constexpr IntegerRange collective_chunks{1, 4096};
inline constexpr QuantityRange gradient_bucket{0.0, false, 1024.0 * 1024 * 1024 * 1024};  // 1 TiB
// what-if
inline constexpr std::size_t max_what_if_rules = 1000;     // in each of what_if's lists
inline constexpr std::int64_t max_what_if_npus = 100'000;  // listed by one rule, ranges counted out
inline constexpr QuantityRange injected_delay{0.0, true, 3600.0};  // 1 h
inline constexpr IntegerRange what_if_layer{0, 9'999};
inline constexpr IntegerRange what_if_npu{0, max_devices - 1};
inline constexpr IntegerRange what_if_dimension{0, static_cast<std::int64_t>(max_topology_dimensions) - 1};
inline constexpr NumberRange compute_time_factor{0.01, 1000.0};
inline constexpr NumberRange bandwidth_factor{0.001, 1000.0};

}  // namespace limits

// The message for a value outside its range, or nullopt when it is inside. `path` names the value
// ("model.layers"); `shown` is the value as the user wrote it, for quantities and plain numbers.
[[nodiscard]] std::optional<std::string> integer_range_problem(std::string_view path, std::int64_t value,
                                                               IntegerRange range);
// The message for a whole number written with more digits than 64 bits hold ("100000000000000000000000000"), which
// is outside every range; worded as integer_range_problem, so every number out of range reads alike. `shown` is the
// number as the user wrote it.
[[nodiscard]] std::string integer_beyond_range_problem(std::string_view path, std::string_view shown,
                                                       IntegerRange range);
[[nodiscard]] std::optional<std::string> quantity_range_problem(std::string_view path, double value,
                                                                std::string_view shown, units::Dimension dimension,
                                                                QuantityRange range);
[[nodiscard]] std::optional<std::string> number_range_problem(std::string_view path, double value,
                                                              std::string_view shown, NumberRange range);

}  // namespace parasight
