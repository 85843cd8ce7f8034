#pragma once
// ParaSight's value for a published case: the collective through the core's cost model, or a simulated iteration.

#include "published_case.h"

#include "common/expected.h"

namespace parasight::validation {

// The value in the metric's unit; the error is a sentence naming the case's scenario.
[[nodiscard]] Expected<double> measure_case(const PublishedCase& published, const std::filesystem::path& cases_folder);

}  // namespace parasight::validation
