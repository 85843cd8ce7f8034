#include "compile/memory_lower_bound.h"

#include "compile/layer_costs.h"
#include "compile/pipeline_schedule.h"
#include "compile/stage_parameters.h"
#include "device/compute_model.h"
#include "model/layer_operations.h"

#include <algorithm>
#include <map>

namespace parasight {
namespace {

// Whether the strategy tree changes how many micro-batches a stage runs or keeps in flight.
bool tree_changes_micro_batches(const StrategyTree& tree) {
    return std::any_of(tree.overrides().begin(), tree.overrides().end(), [](const StrategyOverride& entry) {
        return entry.micro_batches.has_value() || entry.max_ongoing_micro_batches.has_value();
    });
}

}  // namespace

MemoryLowerBound memory_lower_bound(const ValidatedScenario& validated) {
    const Scenario& scenario = validated.value();
    const ParallelismSpec& parallelism = scenario.parallelism;
    const StrategyTree tree(validated);
    std::vector<CnnLayerWork> cnn_layers;
    const Dtype dtype = scenario.training.dtype;
    const bool transformer = scenario.model.kind == ModelKind::transformer;
    if (!transformer) cnn_layers = cnn_layer_work(scenario.model, scenario.training.micro_batch, dtype_bytes(dtype));

    // Activations one layer keeps for one micro-batch, by what the layer recomputes (one cost each, as the compiler).
    const ComputeModel compute = make_compute_model(scenario.cluster.device, dtype, scenario.simulation.measured_times_s);
    std::map<RecomputedOperations, double> kept_by_recompute;
    const auto layer_activation = [&](int layer) {
        const RecomputedOperations recomputed = tree.recomputed_operations(layer);
        const auto [it, added] = kept_by_recompute.try_emplace(recomputed, 0.0);
        if (added) {
            it->second = transformer_layer_costs(scenario.model, parallelism, scenario.training,
                                                 scenario.training.micro_batch, compute,
                                                 storage_element_bytes(dtype), storage_element_bytes(dtype), recomputed)
                             .activation_bytes;
        }
        return it->second;
    };

    const int pp = parallelism.pp;
    const int chunks = parallelism.schedule == Schedule::interleaved ? parallelism.virtual_stages : 1;
    const bool one_micro_batch_only = tree_changes_micro_batches(tree);
    const auto micro_batches = static_cast<int>(scenario.micro_batches());

    MemoryLowerBound bound;
    bound.capacity_bytes = scenario.cluster.device.memory_bytes;
    bound.runtime_bytes = scenario.cluster.device.context_memory_bytes;
    for (int stage = 0; stage < tree.stage_count(); ++stage) {
        // Offloaded states are on the device only while they are used (a layer's shard, the step's states and
        // gradients after the activations are gone).
        const ModelStateBytes stage_states = stage_resident_states(scenario, tree, cnn_layers, stage);
        const double states = stage_states.total_bytes();
        double held = 0.0;
        double most_held = 0.0;
        int in_flight = 0;
        int most_in_flight = 0;
        if (transformer) {
            // What each of the stage's chunks keeps for one micro-batch.
            std::vector<double> chunk_bytes(static_cast<std::size_t>(chunks), 0.0);
            for (int chunk = 0; chunk < chunks; ++chunk) {
                const auto [first, count] = tree.chunk_layers(chunk * pp + stage);
                for (int layer = first; layer < first + count; ++layer) {
                    chunk_bytes[static_cast<std::size_t>(chunk)] += layer_activation(layer);
                }
            }
            if (one_micro_batch_only) {
                for (const double bytes : chunk_bytes) most_held += bytes;
                most_in_flight = 1;
            } else {
                // A split backward frees the activations at its weight-gradient step.
                const bool split = splits_backward(parallelism.schedule);
                for (const PipelineStep& step :
                     pipeline_steps(parallelism.schedule, stage, pp, micro_batches, chunks, 0,
                                    parallelism.micro_batch_group.value_or(0))) {
                    if (!step.forward && split && !step.weight_gradient) continue;
                    const double bytes = chunk_bytes[static_cast<std::size_t>(step.chunk)];
                    held += step.forward ? bytes : -bytes;
                    in_flight += step.forward ? 1 : -1;
                    if (held > most_held) {
                        most_held = held;
                        most_in_flight = in_flight;
                    }
                }
            }
        }
        if (bound.runtime_bytes + states + most_held > bound.needed_bytes) {
            bound.needed_bytes = bound.runtime_bytes + states + most_held;
            bound.stage = stage;
            bound.model_state_bytes = states;
            bound.activation_bytes = most_held;
            bound.micro_batches_in_flight = most_in_flight;
        }
    }
    return bound;
}

}  // namespace parasight
