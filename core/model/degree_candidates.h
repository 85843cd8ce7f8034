#pragma once
// The ways to lay a model onto a cluster's devices by the parallel degrees alone: every tp × pp × ep × dp that
// multiplies to the device count over cp, with tp dividing the attention heads and the key-value heads (1 for a
// CNN), pp at most the layers a pipeline splits, ep dividing the experts (1 for a dense model); dp is what is left.
// The strategy space of a sweep and the form's layout picker both start from it; neither the batch nor the rest of
// the scenario is checked here (validate() does that).

#include "scenario/scenario.h"

#include <cstdint>
#include <vector>

namespace parasight {

struct DegreeCandidate {
    std::int64_t tp = 1;
    std::int64_t pp = 1;
    std::int64_t ep = 1;
    std::int64_t dp = 1;
    bool operator==(const DegreeCandidate&) const = default;
};

// In increasing tp, then pp, then ep; empty when cp does not divide the devices.
[[nodiscard]] std::vector<DegreeCandidate> degree_candidates(const ModelSpec& model, std::int64_t devices,
                                                             std::int64_t cp);

}  // namespace parasight
