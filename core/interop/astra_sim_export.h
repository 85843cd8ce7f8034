#pragma once
// A scenario's cluster as ASTRA-sim 2.0's network and system files (docs/interop.md), the inverse of
// astra_sim_import.h: each dimension of more than one NPU with ASTRA-sim's name, NPU count, per-link bandwidth in its
// GB (2^30 bytes) a second — what a collective reaches, the dimension's efficiency folded in — and latency in ns; the
// algorithms for every operation, the chunks, the step latency as the endpoint delay, the device's peak for the
// training dtype and its memory bandwidth as the roofline. Every number is the one that the importer reads back as
// exactly the scenario's value, so import → export → import gives the same scenario. What ParaSight models and
// ASTRA-sim will not (NCCL's choice of algorithm, a flat ring across nodes, efficiencies, the model itself, which
// ASTRA-sim takes as a Chakra execution trace) is listed.

#include "common/expected.h"
#include "scenario/scenario.h"

#include <string>
#include <vector>

namespace parasight {

struct AstraSimExport {
    std::string network_yaml;
    std::string system_json;
    std::vector<std::string> not_modelled;  // sentences: what ASTRA-sim will not model that ParaSight did
};

// An error when the cluster has no dimension of more than one NPU (ASTRA-sim needs a network).
[[nodiscard]] Expected<AstraSimExport> export_astra_sim(const Scenario& scenario);

}  // namespace parasight
