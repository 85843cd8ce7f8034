#pragma once
// The strategy tree (Proteus §4): the model's structure — model → pipeline stages → layers → (for transformers)
// attention and MLP blocks → their operations — with the parallel configuration on the root and overrides on any
// node. A value not set on a node is inherited from the nearest
// ancestor that sets it, ending at the root's `parallelism` settings; the tree says which values are explicit and
// where inherited ones come from, so an editor can show them differently.

#include "strategy/node_path.h"
#include "scenario/validated_scenario.h"

#include <string>
#include <vector>

namespace parasight {

// A value as a node sees it.
template <class T>
struct Setting {
    T value{};
    bool is_explicit = false;  // set on this node itself
    std::string source;        // the node that sets it: "stage[2]", or "parallelism" for the root's configuration
};

struct StrategyNode {
    NodePath path;
    int parent = -1;            // index into StrategyTree::nodes(), -1 for the root
    std::vector<int> children;
    int first_layer = 0;        // the first model layer under this node (the lowest, when interleaved)
    int layer_count = 0;        // model layers under this node
    int override_index = -1;    // index into StrategyTree::overrides() of this node's entry, or -1
};

// A value: it copies what it needs of the scenario, so it outlives the scenario it was built from (an editor may
// keep it while the scenario changes).
class StrategyTree {
public:
    explicit StrategyTree(const ValidatedScenario& scenario);

    [[nodiscard]] const std::vector<StrategyNode>& nodes() const noexcept { return nodes_; }
    [[nodiscard]] const std::vector<StrategyOverride>& overrides() const noexcept { return overrides_; }
    [[nodiscard]] int root() const noexcept { return 0; }
    [[nodiscard]] int stage(int index) const { return stage_nodes_.at(static_cast<std::size_t>(index)); }
    [[nodiscard]] int layer(int index) const { return layer_nodes_.at(static_cast<std::size_t>(index)); }
    // A transformer layer's attention or MLP block, and an operation of it (model/transformer_operations.h).
    [[nodiscard]] int block(int layer_index, LayerBlock which) const;
    [[nodiscard]] int operation(int layer_index, LayerBlock which, int operation_index) const;
    [[nodiscard]] int stage_count() const noexcept { return static_cast<int>(stage_nodes_.size()); }

    // Layers per pipeline stage: given by stage nodes, the rest shared evenly.
    [[nodiscard]] int layers_of_stage(int stage_index) const;
    // The first layer and the layer count of model chunk `model_chunk` (chunk c of stage s is model chunk c·pp + s;
    // without interleaving, the stage). A chunk may hold no layer: stage 0's first, holding the embedding only.
    [[nodiscard]] std::pair<int, int> chunk_layers(int model_chunk) const;
    [[nodiscard]] Setting<Recompute> recompute(int node) const;
    // The operations of a transformer layer that run again before their backward, each as its own recompute
    // setting says (selective: the attention core).
    [[nodiscard]] RecomputedOperations recomputed_operations(int layer_index) const;
    // Micro-batches one 1F1B stage may start before its first backward; 0 means the schedule's own (p − s).
    [[nodiscard]] Setting<int> max_ongoing_micro_batches(int node) const;
    [[nodiscard]] Setting<int> micro_batches(int node) const;

private:
    template <class T, class Get>
    [[nodiscard]] Setting<T> resolve(int node, T root_value, Get get) const;

    Recompute root_recompute_ = Recompute::none;  // parallelism.recompute
    int micro_batches_ = 1;                       // per replica and iteration
    std::vector<StrategyOverride> overrides_;     // the scenario's strategy_tree entries
    std::vector<StrategyNode> nodes_;
    std::vector<int> stage_nodes_;
    std::vector<int> layer_nodes_;
    std::vector<int> chunk_first_layer_;  // by model chunk, + 1: chunk c holds layers [first[c], first[c + 1])
};

}  // namespace parasight
