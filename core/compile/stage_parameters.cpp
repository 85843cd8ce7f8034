#include "compile/stage_parameters.h"

#include "model/model_structure.h"
#include "model/transformer_costs.h"

namespace parasight {

bool holds_output_table(const ModelSpec& model, const ParallelismSpec& parallelism, int stage) {
    return stage == parallelism.pp - 1 && (parallelism.pp > 1 || !model.tie_embeddings);
}

double stage_parameters(const ModelSpec& model, const ParallelismSpec& parallelism, const StrategyTree& tree,
                        std::span<const CnnLayerWork> cnn_layers, int stage) {
    if (model.kind == ModelKind::cnn) {
        double params = 0.0;
        for (const int child : tree.nodes()[static_cast<std::size_t>(tree.stage(stage))].children) {
            const int layer = tree.nodes()[static_cast<std::size_t>(child)].path.index;
            params += cnn_layers[static_cast<std::size_t>(layer)].parameters;
        }
        return params;
    }
    double params = stage_layer_parameters(model, parallelism, tree, stage);
    const double table = embedding_table_parameters(model, parallelism.tp);
    if (stage == 0) params += table;
    if (holds_output_table(model, parallelism, stage)) params += table;
    if (stage == parallelism.pp - 1) params += final_norm_parameters(model);
    return params;
}

double stage_layer_parameters(const ModelSpec& model, const ParallelismSpec& parallelism, const StrategyTree& tree,
                              int stage) {
    if (model.kind != ModelKind::transformer) return 0.0;
    return tree.layers_of_stage(stage) * layer_parameters_on_rank(model, parallelism.tp, parallelism.ep);
}

double stage_expert_parameters(const ModelSpec& model, const ParallelismSpec& parallelism, const StrategyTree& tree,
                               int stage) {
    if (model.kind != ModelKind::transformer) return 0.0;
    return tree.layers_of_stage(stage) * expert_parameters_on_rank(model, parallelism.tp, parallelism.ep);
}

std::int64_t dense_replicas(const ParallelismSpec& parallelism) noexcept {
    return data_replicas(parallelism) * parallelism.ep;
}

std::int64_t data_replicas(const ParallelismSpec& parallelism) noexcept {
    return static_cast<std::int64_t>(parallelism.dp) * parallelism.cp;
}

ModelStateBytes stage_model_states(const Scenario& scenario, const StrategyTree& tree,
                                   std::span<const CnnLayerWork> cnn_layers, int stage) {
    const ParallelismSpec& parallelism = scenario.parallelism;
    const double all = stage_parameters(scenario.model, parallelism, tree, cnn_layers, stage);
    const double experts = stage_expert_parameters(scenario.model, parallelism, tree, stage);
    const TrainingSpec& training = scenario.training;
    const int zero = parallelism.zero;
    const auto dense_shards = static_cast<int>(dense_replicas(parallelism));
    const auto expert_shards = static_cast<int>(data_replicas(parallelism));
    const ModelStateBytes dense = model_state_bytes(all - experts, training, zero, dense_shards);
    const ModelStateBytes expert = model_state_bytes(experts, training, zero, expert_shards);
    ModelStateBytes states;
    states.weights_bytes = zero == 3 ? model_state_bytes(all, training, zero, expert_shards).weights_bytes
                                     : dense.weights_bytes + expert.weights_bytes;
    states.gradients_bytes = dense.gradients_bytes + expert.gradients_bytes;
    states.optimizer_bytes = dense.optimizer_bytes + expert.optimizer_bytes;
    return states;
}

ModelStateBytes stage_offloaded_states(const Scenario& scenario, const StrategyTree& tree,
                                       std::span<const CnnLayerWork> cnn_layers, int stage) {
    const ParallelismSpec& parallelism = scenario.parallelism;
    const ModelStateBytes all = stage_model_states(scenario, tree, cnn_layers, stage);
    ModelStateBytes offloaded;
    if (parallelism.offload_parameters != OffloadTarget::none) {
        // The layers' ZeRO-3 shards, over dp × cp (what the gathers bring the rest of).
        const double layers = stage_layer_parameters(scenario.model, parallelism, tree, stage);
        offloaded.weights_bytes =
            model_state_bytes(layers, scenario.training, 3, static_cast<int>(data_replicas(parallelism))).weights_bytes;
    }
    if (parallelism.offload_gradients != OffloadTarget::none) offloaded.gradients_bytes = all.gradients_bytes;
    if (parallelism.offload_optimizer != OffloadTarget::none) offloaded.optimizer_bytes = all.optimizer_bytes;
    return offloaded;
}

ModelStateBytes stage_resident_states(const Scenario& scenario, const StrategyTree& tree,
                                      std::span<const CnnLayerWork> cnn_layers, int stage) {
    const ModelStateBytes all = stage_model_states(scenario, tree, cnn_layers, stage);
    const ModelStateBytes offloaded = stage_offloaded_states(scenario, tree, cnn_layers, stage);
    return {all.weights_bytes - offloaded.weights_bytes, all.gradients_bytes - offloaded.gradients_bytes,
            all.optimizer_bytes - offloaded.optimizer_bytes};
}

double stage_optimizer_step_parameters(const Scenario& scenario, const StrategyTree& tree,
                                       std::span<const CnnLayerWork> cnn_layers, int stage) {
    const ParallelismSpec& parallelism = scenario.parallelism;
    const double all = stage_parameters(scenario.model, parallelism, tree, cnn_layers, stage);
    const double experts = stage_expert_parameters(scenario.model, parallelism, tree, stage);
    return optimizer_step_parameters(all - experts, parallelism.zero, static_cast<int>(dense_replicas(parallelism))) +
           optimizer_step_parameters(experts, parallelism.zero, static_cast<int>(data_replicas(parallelism)));
}

}  // namespace parasight
