#pragma once
// A scenario as Calculon's system, model and execution files (docs/interop.md), where it fits Calculon's model: a
// transformer with a two-matrix MLP and multi-head or multi-query attention, tensor, pipeline and data parallelism
// each inside one topology dimension (a Calculon network), 1F1B or interleaved, ZeRO 1 at most, no offload. Each
// number is the one calculon_import.h reads back as exactly the scenario's value, so import → export → import gives
// the same scenario; what Calculon will not model is listed; what does not fit is refused, every reason at once.

#include "common/expected.h"
#include "scenario/scenario.h"

#include <string>
#include <vector>

namespace parasight {

struct CalculonExport {
    std::string system_json;
    std::string model_json;
    std::string execution_json;
    std::vector<std::string> not_modelled;  // sentences: what Calculon will not model that ParaSight did
};

// The error lists every reason the scenario does not fit, one a line.
[[nodiscard]] Expected<CalculonExport> export_calculon(const Scenario& scenario);

}  // namespace parasight
