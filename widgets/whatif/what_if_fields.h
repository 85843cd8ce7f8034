#pragma once
// The editable values of one what-if rule as scenario fields (scenario_form/scenario_fields.h), a table column each:
// a collective delay's group, operation, layers and delay; slow devices' NPUs and compute time factor; degraded
// links' dimension, NPUs and bandwidth factor. Each reads and writes text as the scenario file does ("2 ms",
// "0, 8..15", "3..5"), with "any" / "every" for a selector left out; the path is the one diagnostics name the value
// by ("what_if.collective_delays[0].delay"). Text that parses is written even when out of range, so that validate()
// names the problem as the loader would.

#include "document/what_if_edits.h"
#include "scenario_form/scenario_fields.h"

#include <vector>

namespace parasight::gui {

// The fields of the rule at `row` of `list`, in column order. The row need not exist for the labels and choices
// (a table's header); reading or writing it then is a mistake.
[[nodiscard]] std::vector<ScenarioField> what_if_rule_fields(const Scenario& scenario, WhatIfList list, int row);

// "0, 8..15" → {0, 8, …, 15}, sorted, each once; the reason, naming `path`, when the text is not such a list or
// counts out more than limits::max_what_if_npus NPUs. Empty text is an empty list.
[[nodiscard]] Expected<std::vector<std::int64_t>> parse_npu_list(const QString& text, const std::string& path);

}  // namespace parasight::gui
