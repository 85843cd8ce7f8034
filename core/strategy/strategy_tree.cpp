#include "strategy/strategy_tree.h"

#include "model/model_structure.h"

#include <map>

namespace parasight {

StrategyTree::StrategyTree(const ValidatedScenario& validated)
    : root_recompute_(validated->parallelism.recompute),
      micro_batches_(static_cast<int>(validated->micro_batches())),
      overrides_(validated->strategy_tree) {
    const Scenario& scenario = validated.value();
    const int stages = scenario.parallelism.pp;
    const int total_layers = pipeline_layer_count(scenario.model);
    std::map<NodePath, int> by_path;
    for (std::size_t i = 0; i < overrides_.size(); ++i) {
        if (const auto path = parse_node_path(overrides_[i].node)) by_path.emplace(*path, static_cast<int>(i));
    }
    auto find_override = [&](const NodePath& path) {
        const auto found = by_path.find(path);
        return found == by_path.end() ? -1 : found->second;
    };
    StrategyNode root;
    root.layer_count = total_layers;
    nodes_.push_back(root);

    // Layers per stage: the stages that say, the rest shared evenly.
    std::vector<int> counts(static_cast<std::size_t>(stages), -1);
    int given = 0;
    int free_stages = stages;
    for (int s = 0; s < stages; ++s) {
        const int entry = find_override(NodePath{StrategyNodeKind::stage, s});
        if (entry >= 0 && overrides_[static_cast<std::size_t>(entry)].layers) {
            const int layers = *overrides_[static_cast<std::size_t>(entry)].layers;
            counts[static_cast<std::size_t>(s)] = layers;
            given += layers;
            --free_stages;
        }
    }
    for (int& count : counts) {
        if (count < 0) count = free_stages > 0 ? (total_layers - given) / free_stages : 0;
    }

    // Model chunk c·pp + s is chunk c of stage s (Narayanan et al. 2021 §2.2); without interleaving each stage is one
    // chunk. A stage's layers are spread over its chunks as evenly as they go; the chunks that get one layer fewer
    // are the first ones of stage 0 (its first chunk also runs the embedding) and the last ones of the last stage
    // (its last chunk also runs the output layer and the loss), the last ones elsewhere. So Llama 3's 126 layers on
    // 16 stages of 8 chunks, stage 0 and stage 15 given 7, leave stage 0's first chunk and stage 15's last with no
    // layer (Dubey et al. 2024 §3.3.2).
    const int chunks = scenario.parallelism.schedule == Schedule::interleaved ? scenario.parallelism.virtual_stages : 1;
    std::vector<int> chunk_layers(static_cast<std::size_t>(stages * chunks), 0);
    for (int s = 0; s < stages; ++s) {
        const int count = counts[static_cast<std::size_t>(s)];
        const int spare = count % chunks;  // chunks that get one layer more than count / chunks
        for (int c = 0; c < chunks; ++c) {
            const bool more = s == 0 ? c >= chunks - spare : c < spare;
            chunk_layers[static_cast<std::size_t>(c * stages + s)] = count / chunks + (more ? 1 : 0);
        }
    }
    chunk_first_layer_.assign(chunk_layers.size() + 1, 0);
    for (std::size_t c = 0; c < chunk_layers.size(); ++c) {
        chunk_first_layer_[c + 1] = chunk_first_layer_[c] + chunk_layers[c];
    }
    std::vector<std::vector<int>> stage_layers(static_cast<std::size_t>(stages));
    for (int c = 0; c < chunks; ++c) {
        for (int s = 0; s < stages; ++s) {
            const auto model_chunk = static_cast<std::size_t>(c * stages + s);
            for (int layer = chunk_first_layer_[model_chunk]; layer < chunk_first_layer_[model_chunk + 1]; ++layer) {
                stage_layers[static_cast<std::size_t>(s)].push_back(layer);
            }
        }
    }
    layer_nodes_.assign(static_cast<std::size_t>(total_layers), -1);
    for (int s = 0; s < stages; ++s) {
        const auto& layers = stage_layers[static_cast<std::size_t>(s)];
        StrategyNode stage;
        stage.path = NodePath{StrategyNodeKind::stage, s};
        stage.parent = 0;
        stage.first_layer = layers.empty() ? 0 : layers.front();
        stage.layer_count = static_cast<int>(layers.size());
        stage.override_index = find_override(stage.path);
        const int stage_index = static_cast<int>(nodes_.size());
        nodes_.push_back(stage);
        nodes_[0].children.push_back(stage_index);
        stage_nodes_.push_back(stage_index);
        for (const int model_layer : layers) {
            StrategyNode layer;
            layer.path = NodePath{StrategyNodeKind::layer, model_layer};
            layer.parent = stage_index;
            layer.first_layer = model_layer;
            layer.layer_count = 1;
            layer.override_index = find_override(layer.path);
            const int layer_index = static_cast<int>(nodes_.size());
            nodes_.push_back(layer);
            nodes_[static_cast<std::size_t>(stage_index)].children.push_back(layer_index);
            layer_nodes_[static_cast<std::size_t>(model_layer)] = layer_index;
            if (scenario.model.kind != ModelKind::transformer) continue;
            for (const LayerBlock which : {LayerBlock::attention, LayerBlock::mlp}) {
                StrategyNode block;
                block.path = NodePath{StrategyNodeKind::block, model_layer, which};
                block.parent = layer_index;
                block.first_layer = model_layer;
                block.layer_count = 1;
                block.override_index = find_override(block.path);
                const int block_index = static_cast<int>(nodes_.size());
                nodes_[static_cast<std::size_t>(layer_index)].children.push_back(block_index);
                nodes_.push_back(block);
                const auto operations = static_cast<int>(operation_names(which).size());
                for (int op = 0; op < operations; ++op) {
                    StrategyNode operation = block;
                    operation.path = NodePath{StrategyNodeKind::operation, model_layer, which, op};
                    operation.parent = block_index;
                    operation.override_index = find_override(operation.path);
                    nodes_[static_cast<std::size_t>(block_index)].children.push_back(static_cast<int>(nodes_.size()));
                    nodes_.push_back(operation);
                }
            }
        }
    }
}

int StrategyTree::block(int layer_index, LayerBlock which) const {
    const StrategyNode& node = nodes_[static_cast<std::size_t>(layer(layer_index))];
    return node.children.at(which == LayerBlock::attention ? 0 : 1);
}

int StrategyTree::operation(int layer_index, LayerBlock which, int operation_index) const {
    const StrategyNode& node = nodes_[static_cast<std::size_t>(block(layer_index, which))];
    return node.children.at(static_cast<std::size_t>(operation_index));
}

RecomputedOperations StrategyTree::recomputed_operations(int layer_index) const {
    RecomputedOperations result;
    for (const LayerBlock which : {LayerBlock::attention, LayerBlock::mlp}) {
        const auto operations = static_cast<int>(operation_names(which).size());
        for (int op = 0; op < operations; ++op) {
            if (is_recomputed(recompute(operation(layer_index, which, op)).value, which, op)) result.add(which, op);
        }
        if (recompute(block(layer_index, which)).value == Recompute::selective_op) result.save_matmul_outputs(which);
    }
    return result;
}

int StrategyTree::layers_of_stage(int stage_index) const {
    return nodes_[static_cast<std::size_t>(stage(stage_index))].layer_count;
}

std::pair<int, int> StrategyTree::chunk_layers(int model_chunk) const {
    const auto c = static_cast<std::size_t>(model_chunk);
    return {chunk_first_layer_.at(c), chunk_first_layer_.at(c + 1) - chunk_first_layer_[c]};
}

template <class T, class Get>
Setting<T> StrategyTree::resolve(int node, T root_value, Get get) const {
    for (int at = node; at > 0; at = nodes_[static_cast<std::size_t>(at)].parent) {
        const StrategyNode& candidate = nodes_[static_cast<std::size_t>(at)];
        if (candidate.override_index < 0) continue;
        if (const auto value = get(overrides_[static_cast<std::size_t>(candidate.override_index)])) {
            return Setting<T>{*value, at == node, to_string(candidate.path)};
        }
    }
    return Setting<T>{root_value, node == 0, "parallelism"};
}

Setting<Recompute> StrategyTree::recompute(int node) const {
    return resolve<Recompute>(node, root_recompute_,
                              [](const StrategyOverride& entry) { return entry.recompute; });
}

Setting<int> StrategyTree::max_ongoing_micro_batches(int node) const {
    return resolve<int>(node, 0, [](const StrategyOverride& entry) { return entry.max_ongoing_micro_batches; });
}

Setting<int> StrategyTree::micro_batches(int node) const {
    Setting<int> setting = resolve<int>(node, micro_batches_,
                                        [](const StrategyOverride& entry) { return entry.micro_batches; });
    if (setting.source == "parallelism") setting.source = "training";
    return setting;
}

}  // namespace parasight
