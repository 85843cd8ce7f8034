#include "strategy/node_path.h"

#include <charconv>

namespace parasight {
namespace {

// The index of "stage[i]" or "layer[j]" after its opening bracket: digits and the closing bracket, nothing else.
std::optional<int> bracketed_index(std::string_view rest) {
    if (rest.size() < 2 || rest.back() != ']' || rest.size() > 8) return std::nullopt;
    const std::string_view digits = rest.substr(0, rest.size() - 1);
    if (digits.size() > 1 && digits.front() == '0') return std::nullopt;  // no leading zeros: one spelling per node
    int index = 0;
    const auto [end, status] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (status != std::errc() || end != digits.data() + digits.size() || index < 0) return std::nullopt;
    return index;
}

}  // namespace

ParsedNodePath parse_node_path_checked(std::string_view text) {
    ParsedNodePath result;
    NodePath path;
    if (text.rfind("stage[", 0) == 0) {
        const auto index = bracketed_index(text.substr(6));
        if (!index) return result;
        path.kind = StrategyNodeKind::stage;
        path.index = *index;
        result.path = path;
        return result;
    }
    if (text.rfind("layer[", 0) != 0) return result;
    const std::size_t close = text.find(']');
    if (close == std::string_view::npos) return result;
    const auto index = bracketed_index(text.substr(6, close - 5));
    if (!index) return result;
    path.kind = StrategyNodeKind::layer;
    path.index = *index;
    std::string_view suffix = text.substr(close + 1);
    if (suffix.empty()) {
        result.path = path;
        return result;
    }
    if (suffix.front() != '.') return result;
    suffix.remove_prefix(1);
    const std::size_t dot = suffix.find('.');
    const std::string_view block = suffix.substr(0, dot);
    if (block == "attention") {
        path.block = LayerBlock::attention;
    } else if (block == "mlp") {
        path.block = LayerBlock::mlp;
    } else {
        return result;
    }
    path.kind = StrategyNodeKind::block;
    if (dot != std::string_view::npos) {
        const std::string_view name = suffix.substr(dot + 1);
        const auto operation = operation_index(path.block, name);
        if (!operation) {
            result.error = NodePathError::unknown_operation;
            result.block = path.block;
            result.operation = name;
            return result;
        }
        path.kind = StrategyNodeKind::operation;
        path.operation = *operation;
    }
    result.path = path;
    return result;
}

std::optional<NodePath> parse_node_path(std::string_view text) { return parse_node_path_checked(text).path; }

std::string to_string(const NodePath& path) {
    switch (path.kind) {
    case StrategyNodeKind::model: return "model";
    case StrategyNodeKind::stage: return "stage[" + std::to_string(path.index) + "]";
    case StrategyNodeKind::layer: return "layer[" + std::to_string(path.index) + "]";
    case StrategyNodeKind::block:
        return "layer[" + std::to_string(path.index) + "]." + std::string(block_name(path.block));
    case StrategyNodeKind::operation:
        return "layer[" + std::to_string(path.index) + "]." + std::string(block_name(path.block)) + "." +
               std::string(operation_names(path.block)[static_cast<std::size_t>(path.operation)]);
    }
    return "model";
}

}  // namespace parasight
