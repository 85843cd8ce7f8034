#pragma once
// One collective timed on a scenario's cluster, as `parasight-cli collective` and the Topology tab ask it: an
// operation by name, a buffer, and a group — every NPU (`all`), NPU 0's group on a parallel axis (`tp`, `dp`, …), or
// whole dimensions by index (`0,2`) — its time, bus bandwidth as NCCL tests report it, and what each dimension sent
// (docs/collectives.md). The result is words and numbers, for front ends that do not see collective/.

#include "common/expected.h"
#include "scenario/scenario.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

struct CollectiveProbeDimension {
    std::size_t dimension = 0;
    std::string kind;       // ring, fully_connected, switch
    int members = 1;        // the group's members along it
    std::string algorithm;  // what its first phase ran
    std::string protocol;   // NCCL's: Simple, LL128, LL
    double bytes_sent = 0.0;
    double time_s = 0.0;    // its phases alone, unpipelined
};

struct CollectiveProbe {
    std::string op;
    double size_bytes = 0.0;
    std::int64_t ranks = 1;
    double time_s = 0.0;
    double algbw_Bps = 0.0;
    double busbw_Bps = 0.0;
    std::vector<CollectiveProbeDimension> per_dim;
};

// The operations' names, in the order a list offers them: all-reduce, reduce-scatter, all-gather, all-to-all,
// broadcast.
[[nodiscard]] std::vector<std::string_view> collective_probe_ops();

// `op` one of those, `group` as above, `chunks` 1 – 4096. The error is a sentence: an unknown operation (with a
// did-you-mean), a group that is not one (for the group's: it starts with the group as written).
[[nodiscard]] Expected<CollectiveProbe> probe_collective(const Scenario& scenario, std::string_view op,
                                                         double size_bytes, std::string_view group, int chunks);

}  // namespace parasight
