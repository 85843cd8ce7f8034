#pragma once
// Names that state what a scenario is made of — "GPT-3 175B on 1024 A100-80GB", a cluster's "128 x DGX A100 (1024
// GPUs)" — must stay true: an edit of the topology, the device or the model left them saying 1024 GPUs in the saved
// file and in the results database's run list. A name that states a fact the edit changed (it holds the old device
// count as a number, the old device's name or preset id, in any case, or the model's name) is derived anew from the
// scenario; any other name is the user's and is kept.

#include "scenario/scenario.h"

#include <cstdint>
#include <string>

namespace parasight {

// What names state, as a scenario had it.
struct NameFacts {
    std::int64_t devices = 0;
    std::string device;         // the device's name ("A100-80GB SXM4")
    std::string device_preset;  // and its preset ("a100-80gb", which names read as "A100-80GB")
    std::string model;          // the model's name
};

[[nodiscard]] NameFacts name_facts(const Scenario& scenario);

// "GPT-3 175B on 512 A100-80GB": the model, the device count and the device.
[[nodiscard]] std::string derived_scenario_name(const Scenario& scenario);
// "512 x A100-80GB (8 x 64)": the device count, the device and the topology's sizes, innermost first.
[[nodiscard]] std::string derived_cluster_name(const ClusterSpec& cluster);

// `now`'s name, or derived_scenario_name(now) where it states a fact of `before` that `now` has no more.
[[nodiscard]] std::string true_scenario_name(const NameFacts& before, const Scenario& now);
// Derives anew the scenario's and the cluster's name where it states a fact of `before` that `after` has no more.
void keep_names_true(const NameFacts& before, Scenario& after);

}  // namespace parasight
