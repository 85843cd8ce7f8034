#include "document/what_if_edits.h"

namespace parasight::gui {

namespace {

template <typename Rule>
bool remove_at(std::vector<Rule>& rules, int row) {
    if (row < 0 || row >= static_cast<int>(rules.size())) return false;
    rules.erase(rules.begin() + row);
    return true;
}

}  // namespace

std::string what_if_list_key(WhatIfList list) {
    switch (list) {
    case WhatIfList::collective_delays: return "collective_delays";
    case WhatIfList::slow_devices: return "slow_devices";
    case WhatIfList::degraded_links: return "degraded_links";
    }
    return {};
}

std::string what_if_rule_path(WhatIfList list, int row) {
    return parasight::what_if_rule_path(what_if_list_key(list), static_cast<std::size_t>(row));
}

int what_if_rule_count(const WhatIfSpec& what_if, WhatIfList list) {
    switch (list) {
    case WhatIfList::collective_delays: return static_cast<int>(what_if.collective_delays.size());
    case WhatIfList::slow_devices: return static_cast<int>(what_if.slow_devices.size());
    case WhatIfList::degraded_links: return static_cast<int>(what_if.degraded_links.size());
    }
    return 0;
}

void add_what_if_rule(Scenario& scenario, WhatIfList list) {
    WhatIfSpec& what_if = scenario.what_if;
    switch (list) {
    case WhatIfList::collective_delays: {
        CollectiveDelay delay;
        delay.group = ParallelAxis::dp;
        delay.operation = CommOperation::all_reduce;
        delay.delay_s = 1e-3;
        what_if.collective_delays.push_back(delay);
        return;
    }
    case WhatIfList::slow_devices: {
        SlowDevices slow;
        slow.npus = {0};
        slow.compute_time_factor = 1.25;
        what_if.slow_devices.push_back(slow);
        return;
    }
    case WhatIfList::degraded_links: {
        DegradedLinks links;
        links.npus = {0};
        links.bandwidth_factor = 0.5;
        what_if.degraded_links.push_back(links);
        return;
    }
    }
}

bool remove_what_if_rule(Scenario& scenario, WhatIfList list, int row) {
    WhatIfSpec& what_if = scenario.what_if;
    switch (list) {
    case WhatIfList::collective_delays: return remove_at(what_if.collective_delays, row);
    case WhatIfList::slow_devices: return remove_at(what_if.slow_devices, row);
    case WhatIfList::degraded_links: return remove_at(what_if.degraded_links, row);
    }
    return false;
}

}  // namespace parasight::gui
