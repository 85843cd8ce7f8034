#pragma once
// The parallel layouts to offer with one click (the form's layout picker): every degree candidate
// (model/degree_candidates.h) that passes validate() with the rest of the scenario as it is — the batch divides into
// its replicas' micro-batches, tp divides ffn_hidden and, with sequence parallelism, the sequence, the schedule's
// micro-batch groups fit, the strategy tree's stages match pp — so that choosing one never steps through invalid
// states the way changing tp, pp and dp one field at a time does.

#include "model/degree_candidates.h"
#include "scenario/scenario.h"

#include <vector>

namespace parasight {

// `scenario` with these degrees, none of them `auto`; an axis of degree > 1 the mapping does not list is added to it,
// outermost.
[[nodiscard]] Scenario with_degrees(Scenario scenario, const DegreeCandidate& degrees);

// The candidates that validate, in degree_candidates' order (cp kept as the scenario has it).
[[nodiscard]] std::vector<DegreeCandidate> valid_layouts(const Scenario& scenario);

}  // namespace parasight
