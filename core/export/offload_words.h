#pragma once
// What one tier keeps of the offloaded model states, in words for the command line and the Memory tab: "optimizer
// states", "parameters and gradients", "parameters, gradients and optimizer states" (the order they are used in).

#include "analysis/report.h"

#include <string>

namespace parasight {

[[nodiscard]] std::string offloaded_states_words(const OffloadUse& use);

}  // namespace parasight
