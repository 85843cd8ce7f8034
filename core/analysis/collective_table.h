#pragma once
// The communication a device runs in one iteration, a row per kind of call — its group and operation as the compiler
// names it ("tp all-reduce", "dp reduce-scatter", "pp send activations") — with how many calls a device makes, the
// bytes of one call, the time one takes as it ran (sharing links with the others), the algorithm bandwidth (bytes
// / time) and the bus bandwidth as NCCL tests report it (algbw × 2(n−1)/n for an all-reduce of n ranks, (n−1)/n for
// a reduce-scatter, all-gather or all-to-all, 1 for a broadcast and a point-to-point send), so that it compares with
// a link's bandwidth and with nccl-tests' tables — and how it ran: the algorithm and protocol on each dimension
// (NCCL's choice where a dimension leaves it to NCCL).

#include "analysis/breakdown.h"
#include "analysis/identical_devices.h"
#include "analysis/timeline.h"

#include <string>
#include <vector>

namespace parasight {

struct CollectiveRow {
    CommGroup group = CommGroup::tp;  // its kind's (the tied embedding's all-reduce counts as dp, as in the breakdown)
    std::string operation;
    std::int64_t ranks = 2;
    double calls_per_device = 0.0;  // the mean over the real devices (each simulated one for those it stands for)
    double bytes_per_call = 0.0;    // the mean
    double time_per_call_s = 0.0;   // the mean, as it ran
    double algbw_Bps = 0.0;         // bytes per call / time per call
    double busbw_Bps = 0.0;
    // "ring · LL128" on one dimension, "dim 0 ring · Simple, dim 1 tree · LL" on several; calls of the row that ran
    // differently (buckets of other sizes) are joined with " or "; "point to point" for a send.
    std::string method;
};

// How one transfer ran, as CollectiveRow::method writes it.
[[nodiscard]] std::string method_text(const TransferShape& shape);

// In the order of the groups (tp, cp, ep, pp, dp), then by operation. With `classes` (built from the same timeline),
// each class of identical devices is read once, through its first member.
[[nodiscard]] std::vector<CollectiveRow> collective_table(const Timeline& timeline,
                                                          const IdenticalDevices* classes = nullptr);

}  // namespace parasight
