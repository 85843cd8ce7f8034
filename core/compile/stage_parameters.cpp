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
    const double layers = tree.layers_of_stage(stage);
    double params = layers * layer_parameters_on_rank(model, parallelism.tp, parallelism.ep);
    const double table = embedding_table_parameters(model, parallelism.tp);
    if (stage == 0) params += table;
    if (holds_output_table(model, parallelism, stage)) params += table;
    if (stage == parallelism.pp - 1) params += final_norm_parameters(model);
    return params;
}

std::pair<int, int> chunk_layers(const ModelSpec& model, const ParallelismSpec& parallelism, const StrategyTree& tree,
                                 int model_chunk) {
    const int chunks = parallelism.schedule == Schedule::interleaved ? parallelism.virtual_stages : 1;
    if (chunks > 1) {
        const int per_chunk = pipeline_layer_count(model) / (parallelism.pp * chunks);
        return {model_chunk * per_chunk, per_chunk};
    }
    const StrategyNode& stage = tree.nodes()[static_cast<std::size_t>(tree.stage(model_chunk))];
    return {stage.first_layer, stage.layer_count};
}

ModelStateBytes stage_model_states(const Scenario& scenario, const StrategyTree& tree,
                                   std::span<const CnnLayerWork> cnn_layers, int stage) {
    const ParallelismSpec& parallelism = scenario.parallelism;
    return model_state_bytes(stage_parameters(scenario.model, parallelism, tree, cnn_layers, stage),
                             scenario.training.dtype, scenario.training.optimizer, parallelism.zero, parallelism.dp);
}

}  // namespace parasight
