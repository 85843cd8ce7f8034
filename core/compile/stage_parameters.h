#pragma once
// The parameters a device of one pipeline stage holds, and so the model states (weights, gradients, optimizer state)
// it keeps for the whole iteration: what the compiler allocates on each device and what the closed-form memory
// bound reads, from one place.

#include "model/cnn_layers.h"
#include "model/model_states.h"
#include "strategy/strategy_tree.h"

#include <span>
#include <utility>

namespace parasight {

// Whether stage `stage` holds the output projection: the last stage, unless a single stage shares the tied
// embedding table.
[[nodiscard]] bool holds_output_table(const ModelSpec& model, const ParallelismSpec& parallelism, int stage);

// Parameters on one device of `stage`: its layers' (split tp and ep ways), plus the embedding table on the first
// stage, the output table and the final norm on the last; a CNN stage's layers whole (`cnn_layers`: the model's
// layers in order, empty for a transformer).
[[nodiscard]] double stage_parameters(const ModelSpec& model, const ParallelismSpec& parallelism,
                                      const StrategyTree& tree, std::span<const CnnLayerWork> cnn_layers, int stage);

// The part of stage_parameters that belongs to experts (0 for a dense model): sharded and reduced over dp only, the
// rest over dp × ep.
[[nodiscard]] double stage_expert_parameters(const ModelSpec& model, const ParallelismSpec& parallelism,
                                             const StrategyTree& tree, int stage);

// The model states one device of `stage` keeps for the whole iteration, ZeRO-sharded as Megatron-Core's distributed
// optimizer shards them: dense parameters' optimizer state (ZeRO ≥ 1) and gradients (ZeRO ≥ 2) over every replica
// that holds them, dp × ep ranks; expert parameters' over dp. ZeRO-3's weight shards stay over dp, where the
// compiler gathers them. Offloaded states are counted too (stage_resident_states leaves them out).
// The ranks that hold the same dense parameters, reduce their gradients together and share their ZeRO shards: dp,
// times cp (context-parallel ranks hold the same weights: Megatron-Core reduces gradients and shards its
// distributed optimizer over dp × cp, parallel_state.get_data_parallel_group(with_context_parallel=True)), times ep
// (expert parallelism is carved out of data parallelism). data_replicas: dp × cp, the ranks that hold an expert's
// parameters alike, and each layer's whole (what ZeRO-3 shards a layer over; FSDP2's dp_shard_cp mesh).
[[nodiscard]] std::int64_t dense_replicas(const ParallelismSpec& parallelism) noexcept;
[[nodiscard]] std::int64_t data_replicas(const ParallelismSpec& parallelism) noexcept;

[[nodiscard]] ModelStateBytes stage_model_states(const Scenario& scenario, const StrategyTree& tree,
                                                 std::span<const CnnLayerWork> cnn_layers, int stage);

// The parameters of the stage's transformer layers on one device: stage_parameters without the embedding, the output
// table and the final norm — what ZeRO-3 gathers layer by layer (0 for a CNN).
[[nodiscard]] double stage_layer_parameters(const ModelSpec& model, const ParallelismSpec& parallelism,
                                            const StrategyTree& tree, int stage);

// What parallelism.offload_parameters, offload_gradients and offload_optimizer keep off one device of `stage`, each
// kind's bytes (0 where it stays): the layers' ZeRO-3 shards (the embedding's, the output table's and the final
// norm's stay on the device: ParaSight gathers none of them), the gradient shards, the optimizer's states.
[[nodiscard]] ModelStateBytes stage_offloaded_states(const Scenario& scenario, const StrategyTree& tree,
                                                     std::span<const CnnLayerWork> cnn_layers, int stage);
// What stays on the device for the whole iteration: stage_model_states less stage_offloaded_states.
[[nodiscard]] ModelStateBytes stage_resident_states(const Scenario& scenario, const StrategyTree& tree,
                                                    std::span<const CnnLayerWork> cnn_layers, int stage);

// Parameters whose update one device of `stage` computes: from ZeRO stage 1 on, the dense shard of dp × ep and the
// expert shard of dp (optimizer_step_parameters for each).
[[nodiscard]] double stage_optimizer_step_parameters(const Scenario& scenario, const StrategyTree& tree,
                                                     std::span<const CnnLayerWork> cnn_layers, int stage);

}  // namespace parasight
