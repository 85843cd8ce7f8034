#pragma once
// Names of strategy-tree nodes as scenario files write them: "stage[i]" (a pipeline stage) and "layer[j]" (a model
// layer, counted over the whole model), counting from 0.

#include <optional>
#include <string>
#include <string_view>

namespace parasight {

enum class StrategyNodeKind { model, stage, layer };

struct NodePath {
    StrategyNodeKind kind = StrategyNodeKind::model;
    int index = 0;

    friend bool operator==(const NodePath&, const NodePath&) = default;
};

// nullopt unless `text` is stage[i] or layer[j] with a plain decimal index below 10^7.
[[nodiscard]] std::optional<NodePath> parse_node_path(std::string_view text);
[[nodiscard]] std::string to_string(const NodePath& path);

}  // namespace parasight
