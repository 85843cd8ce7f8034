#include "strategy/node_path.h"

#include <charconv>

namespace parasight {

std::optional<NodePath> parse_node_path(std::string_view text) {
    NodePath path;
    std::optional<LayerBlock> block;
    if (text.rfind("layer[", 0) == 0) {
        const std::size_t dot = text.find("].");
        if (dot != std::string_view::npos) {
            const std::string_view suffix = text.substr(dot + 2);
            if (suffix == "attention") {
                block = LayerBlock::attention;
            } else if (suffix == "mlp") {
                block = LayerBlock::mlp;
            } else {
                return std::nullopt;
            }
            text = text.substr(0, dot + 1);
        }
    }
    std::string_view rest;
    if (text.rfind("stage[", 0) == 0) {
        path.kind = StrategyNodeKind::stage;
        rest = text.substr(6);
    } else if (text.rfind("layer[", 0) == 0) {
        path.kind = StrategyNodeKind::layer;
        rest = text.substr(6);
    } else {
        return std::nullopt;
    }
    if (rest.size() < 2 || rest.back() != ']' || rest.size() > 8) return std::nullopt;
    const std::string_view digits = rest.substr(0, rest.size() - 1);
    if (digits.size() > 1 && digits.front() == '0') return std::nullopt;  // no leading zeros: one spelling per node
    const auto [end, status] = std::from_chars(digits.data(), digits.data() + digits.size(), path.index);
    if (status != std::errc() || end != digits.data() + digits.size() || path.index < 0) return std::nullopt;
    if (block) {
        path.kind = StrategyNodeKind::block;
        path.block = *block;
    }
    return path;
}

std::string to_string(const NodePath& path) {
    switch (path.kind) {
    case StrategyNodeKind::model: return "model";
    case StrategyNodeKind::stage: return "stage[" + std::to_string(path.index) + "]";
    case StrategyNodeKind::layer: return "layer[" + std::to_string(path.index) + "]";
    case StrategyNodeKind::block:
        return "layer[" + std::to_string(path.index) + "]" +
               (path.block == LayerBlock::attention ? ".attention" : ".mlp");
    }
    return "model";
}

}  // namespace parasight
