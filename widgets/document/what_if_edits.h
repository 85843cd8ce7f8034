#pragma once
// The edits the What-if tab makes to a scenario's what_if section (docs/what-if.md): a rule added to one of its three
// lists with values a user then adjusts, and a rule removed. Each is a patch for ScenarioDocument::edit; validate()
// judges the result as it judges a file.

#include "scenario/scenario.h"

#include <array>
#include <string>

namespace parasight::gui {

enum class WhatIfList { collective_delays, slow_devices, degraded_links };
inline constexpr std::array<WhatIfList, 3> what_if_lists{WhatIfList::collective_delays, WhatIfList::slow_devices,
                                                         WhatIfList::degraded_links};

// The list's key in the file: "collective_delays", "slow_devices", "degraded_links".
[[nodiscard]] std::string what_if_list_key(WhatIfList list);
// "what_if.slow_devices[2]": the scenario path diagnostics name the rule by (scenario/what_if.h).
[[nodiscard]] std::string what_if_rule_path(WhatIfList list, int row);
[[nodiscard]] int what_if_rule_count(const WhatIfSpec& what_if, WhatIfList list);

// Appends a rule: a 1 ms delay before every data-parallel all-reduce; NPU 0 computing at 80% speed (compute time
// factor 1.25); NPU 0's links at half their bandwidth.
void add_what_if_rule(Scenario& scenario, WhatIfList list);
// Removes the rule at `row`; false when there is none.
bool remove_what_if_rule(Scenario& scenario, WhatIfList list, int row);

}  // namespace parasight::gui
