#pragma once
// The built-in strategy space (`strategies: all` in a sweep section, `--strategies all` on the command line): every
// way to lay the model onto the cluster's devices, as one group of zipped axes — each point one strategy — so that it
// combines with other axes (bandwidths, sizes) like any axis.
//
// degrees: every tp × pp × dp (× ep for a mixture of experts) that multiplies to the device count, with tp dividing
//          the attention heads and the key-value heads (1 for a CNN), pp at most the layers a pipeline splits, ep
//          dividing the experts; dp is what is left, so the device count is kept; cp stays as the scenario has it.
// all:     each of those × schedule (1F1B, GPipe, and interleaved with 2 and 4 virtual stages when the layers split
//          that way; only 1F1B without a pipeline) × micro-batch (1, 2, 4, 8 that divide a replica's batch) × ZeRO
//          stage (0-3; 0 without data parallelism) × recompute (none, selective, full) × sequence parallelism (with
//          tensor parallelism only).
// A strategy the closed forms cannot rule out is listed; what the loader refuses (an interleaved schedule whose
// last group of micro-batches is smaller than pp, say) is recorded as an invalid point with its reason.

#include "common/expected.h"
#include "scenario/scenario.h"
#include "sweep/sweep_axis.h"

#include <string_view>
#include <vector>

namespace parasight {

enum class StrategySpace : std::uint8_t { degrees, all };

// "all" or "degrees"; the error lists both.
[[nodiscard]] Expected<StrategySpace> parse_strategy_space(std::string_view text);

// The space's axes, zipped (the first axis not, each other with the one before it): parallelism.tp,
// parallelism.pp, parallelism.dp (and parallelism.ep for a mixture of experts), then for `all` parallelism.schedule,
// parallelism.virtual_stages, training.micro_batch, parallelism.zero, parallelism.recompute,
// parallelism.sequence_parallel. Empty when no strategy fits.
[[nodiscard]] std::vector<SweepAxis> strategy_axes(const Scenario& base, StrategySpace space);

}  // namespace parasight
