#include "document/strategy_edits.h"

#include <algorithm>

namespace parasight::gui {

namespace {

bool sets_nothing(const StrategyOverride& entry) {
    return !entry.layers && !entry.recompute && !entry.micro_batches && !entry.max_ongoing_micro_batches;
}

// `node`'s entry, created at the end when missing and `create`.
StrategyOverride* entry_of(Scenario& scenario, const std::string& node, bool create) {
    auto& entries = scenario.strategy_tree;
    const auto found = std::find_if(entries.begin(), entries.end(), [&](const StrategyOverride& e) { return e.node == node; });
    if (found != entries.end()) return &*found;
    if (!create) return nullptr;
    StrategyOverride entry;
    entry.node = node;
    entries.push_back(std::move(entry));
    return &entries.back();
}

void drop_if_empty(Scenario& scenario, const std::string& node) {
    std::erase_if(scenario.strategy_tree,
                  [&](const StrategyOverride& entry) { return entry.node == node && sets_nothing(entry); });
}

}  // namespace

void set_strategy_number(Scenario& scenario, const std::string& node, StrategyField field, std::optional<int> value) {
    StrategyOverride* entry = entry_of(scenario, node, value.has_value());
    if (entry == nullptr) return;
    switch (field) {
    case StrategyField::layers: entry->layers = value; break;
    case StrategyField::micro_batches: entry->micro_batches = value; break;
    case StrategyField::max_ongoing_micro_batches: entry->max_ongoing_micro_batches = value; break;
    case StrategyField::recompute: break;
    }
    drop_if_empty(scenario, node);
}

void set_strategy_recompute(Scenario& scenario, const std::string& node, std::optional<Recompute> value) {
    if (node == to_string(NodePath{})) {  // the root: the global setting
        if (value) scenario.parallelism.recompute = *value;
        return;
    }
    StrategyOverride* entry = entry_of(scenario, node, value.has_value());
    if (entry == nullptr) return;
    entry->recompute = value;
    drop_if_empty(scenario, node);
}

bool move_stage_layers(Scenario& scenario, const StrategyTree& tree, int from, int to, int count) {
    if (from == to || from < 0 || to < 0 || from >= tree.stage_count() || to >= tree.stage_count()) return false;
    const int from_layers = tree.layers_of_stage(from);
    const int moved = std::min(count, from_layers - 1);
    if (moved <= 0) return false;
    const int to_layers = tree.layers_of_stage(to);
    set_strategy_number(scenario, to_string(NodePath{StrategyNodeKind::stage, from}), StrategyField::layers,
                        from_layers - moved);
    set_strategy_number(scenario, to_string(NodePath{StrategyNodeKind::stage, to}), StrategyField::layers,
                        to_layers + moved);
    return true;
}

}  // namespace parasight::gui
