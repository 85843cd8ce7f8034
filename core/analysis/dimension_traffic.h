#pragma once
// What each topology dimension carried in a simulated iteration, for the topology canvas after a run: the bytes an
// NPU sent on it (each transfer's share of that dimension, ExecutionGraph::TransferShape) and the fraction of the
// iteration during which the NPU's transfers were using it, both the mean over the real devices (a simulated device
// counts for the devices it stands for); and, for each kind of parallel group, its bottleneck dimension — the one
// where its collectives spend the most time (ASTRA-sim 2.0: a multi-dimensional collective costs about its slowest
// dimension).

#include "analysis/breakdown.h"
#include "analysis/identical_devices.h"
#include "analysis/timeline.h"

#include <array>
#include <optional>
#include <vector>

namespace parasight {

struct DimensionTraffic {
    double bytes_per_npu = 0.0;
    double busy_fraction = 0.0;  // 0..1
};

struct TrafficReport {
    std::vector<DimensionTraffic> dimensions;  // by topology dimension
    // By CommGroup (tp, cp, ep, pp, dp): the dimension where that group's transfers spend the most time (their
    // phases there alone, summed); none for a group with no transfer. Data and expert parallelism together count as
    // dp; the tied embedding's all-reduce between the first and last stages is no group's.
    std::array<std::optional<std::size_t>, comm_group_count> bottleneck_dimension{};
};

// With `classes` (built from the same timeline), each class of identical devices is read once, through its first
// member, for all of them: the same figures, read from a 64th of the events when every device of GPT-3 on 1024
// GPUs was simulated.
[[nodiscard]] TrafficReport dimension_traffic(const Timeline& timeline, std::size_t dimension_count,
                                              const IdenticalDevices* classes = nullptr);

}  // namespace parasight
