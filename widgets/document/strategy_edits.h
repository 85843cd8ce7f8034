#pragma once
// The edits the Strategy tab makes to a scenario's strategy_tree: a value set on a node (an override entry created
// for it when it has none), a value reset to what the node inherits (the entry dropped once it sets nothing), and a
// layer moved from one pipeline stage to another. Each is a patch for ScenarioDocument::edit and writes exactly the
// strategy_tree entries a scenario file would hold; validate() judges the result.

#include "scenario/scenario.h"
#include "strategy/strategy_tree.h"

#include <optional>
#include <string>

namespace parasight::gui {

enum class StrategyField { layers, micro_batches, max_ongoing_micro_batches, recompute };

// Sets a whole-number field on `node` ("stage[2]"), or resets it when `value` is empty. Not for recompute.
void set_strategy_number(Scenario& scenario, const std::string& node, StrategyField field, std::optional<int> value);
// Sets or resets `node`'s recompute; on the model's root node it is parallelism.recompute, which cannot be reset.
void set_strategy_recompute(Scenario& scenario, const std::string& node, std::optional<Recompute> value);
// Moves `count` layers from stage `from` to stage `to`, as `tree` (built from the scenario) counts them: both stages
// get their new counts written; the others keep theirs. A stage keeps at least one layer, so fewer may move; false
// when none can or a stage is unknown.
bool move_stage_layers(Scenario& scenario, const StrategyTree& tree, int from, int to, int count = 1);

}  // namespace parasight::gui
