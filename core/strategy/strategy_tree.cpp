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

    // The layers of each stage: a contiguous run, or with interleaved virtual stages one run per chunk
    // (chunk c of stage s holds model chunk c·pp + s, Narayanan et al. 2021 §2.2).
    const int chunks = scenario.parallelism.schedule == Schedule::interleaved ? scenario.parallelism.virtual_stages : 1;
    std::vector<std::vector<int>> stage_layers(static_cast<std::size_t>(stages));
    if (chunks > 1) {
        const int per_chunk = total_layers / (stages * chunks);
        for (int c = 0; c < chunks; ++c) {
            for (int s = 0; s < stages; ++s) {
                for (int j = 0; j < per_chunk; ++j) {
                    stage_layers[static_cast<std::size_t>(s)].push_back((c * stages + s) * per_chunk + j);
                }
            }
        }
    } else {
        int next_layer = 0;
        for (int s = 0; s < stages; ++s) {
            for (int j = 0; j < counts[static_cast<std::size_t>(s)]; ++j) {
                stage_layers[static_cast<std::size_t>(s)].push_back(next_layer++);
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
    }
    return result;
}

int StrategyTree::layers_of_stage(int stage_index) const {
    return nodes_[static_cast<std::size_t>(stage(stage_index))].layer_count;
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
