#pragma once
// The edits the Topology tab and the scenario form make to a scenario's topology and parallel mapping, each a patch
// for ScenarioDocument::edit. They keep the scenario readable — a topology never loses its last dimension — and
// leave every check of the result to validate() (a device count that no longer matches the degrees, say).

#include "scenario/scenario.h"

#include <cstddef>
#include <vector>

namespace parasight::gui {

// A new outermost dimension of `kind` and 2 members, with the bandwidth and latency of the one it goes around.
void add_outer_dimension(Scenario& scenario, DimensionKind kind);
// Removes dimension `dimension` unless it is the only one.
void remove_dimension(Scenario& scenario, std::size_t dimension);
// Swaps dimensions `inner` and `inner + 1`: the outer one moves inside.
void swap_with_outer(Scenario& scenario, std::size_t inner);
// The parallel axes' layout order, innermost first: the axes in `order`, then those the mapping listed before that
// `order` leaves out (of degree 1), as they were.
void reorder_mapping(Scenario& scenario, const std::vector<ParallelAxis>& order);

}  // namespace parasight::gui
