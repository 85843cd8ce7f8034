#pragma once
// Names of strategy-tree nodes as scenario files write them: "stage[i]" (a pipeline stage), "layer[j]" (a model
// layer, counted over the whole model) and "layer[j].attention" / "layer[j].mlp" (a transformer layer's blocks),
// counting from 0.

#include <optional>
#include <string>
#include <string_view>

namespace parasight {

enum class StrategyNodeKind { model, stage, layer, block };
enum class LayerBlock { attention, mlp };

struct NodePath {
    StrategyNodeKind kind = StrategyNodeKind::model;
    int index = 0;                           // the stage or the layer
    LayerBlock block = LayerBlock::attention;  // for a block node

    friend bool operator==(const NodePath&, const NodePath&) = default;
};

// nullopt unless `text` is stage[i], layer[j], layer[j].attention or layer[j].mlp with a plain decimal index below
// 10^7.
[[nodiscard]] std::optional<NodePath> parse_node_path(std::string_view text);
[[nodiscard]] std::string to_string(const NodePath& path);

}  // namespace parasight
