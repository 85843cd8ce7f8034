#pragma once
// Names of strategy-tree nodes as scenario files write them, counting from 0: "stage[i]" (a pipeline stage),
// "layer[j]" (a model layer, counted over the whole model), "layer[j].attention" / "layer[j].mlp" (a transformer
// layer's blocks) and "layer[j].attention.qkv" (an operation of a block, named as model/transformer_operations.h
// names them).

#include "model/transformer_operations.h"

#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace parasight {

enum class StrategyNodeKind { model, stage, layer, block, operation };

struct NodePath {
    StrategyNodeKind kind = StrategyNodeKind::model;
    int index = 0;                             // the stage or the layer
    LayerBlock block = LayerBlock::attention;  // for a block or an operation node
    int operation = 0;                         // for an operation node: its index in the block

    friend bool operator==(const NodePath&, const NodePath&) = default;
    friend auto operator<=>(const NodePath&, const NodePath&) = default;
};

// Why a text is not a node path.
enum class NodePathError { malformed, unknown_operation };

struct ParsedNodePath {
    std::optional<NodePath> path;
    NodePathError error = NodePathError::malformed;
    std::string_view operation;                // the unknown operation's name, for a did-you-mean
    LayerBlock block = LayerBlock::attention;  // the block it was named under
};

// A node path when `text` is stage[i], layer[j], layer[j].attention, layer[j].mlp or layer[j].BLOCK.OPERATION with a
// plain decimal index below 10^7; otherwise why not.
[[nodiscard]] ParsedNodePath parse_node_path_checked(std::string_view text);
[[nodiscard]] std::optional<NodePath> parse_node_path(std::string_view text);
[[nodiscard]] std::string to_string(const NodePath& path);

}  // namespace parasight
