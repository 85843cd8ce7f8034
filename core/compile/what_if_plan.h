#pragma once
// The scenario's what-if rules (scenario/what_if.h) as the graph builder asks for them: the delay a communication
// gets, how much slower an NPU computes, how fast the links of a group or of a point-to-point transfer are, and
// which NPU stands for a pipeline stage when one device per stage is simulated.

#include "collective/collective_op.h"
#include "common/warning.h"
#include "scenario/what_if.h"
#include "topology/parallel_layout.h"

#include <cstdint>
#include <map>
#include <span>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace parasight {

// The operation a delay rule names for a collective the compiler emits (it emits no broadcast; one member's data to
// all is named as a gather ends).
[[nodiscard]] constexpr CommOperation comm_operation(CollectiveOp op) noexcept {
    switch (op) {
    case CollectiveOp::all_reduce: return CommOperation::all_reduce;
    case CollectiveOp::reduce_scatter: return CommOperation::reduce_scatter;
    case CollectiveOp::all_gather:
    case CollectiveOp::broadcast: return CommOperation::all_gather;
    case CollectiveOp::all_to_all: return CommOperation::all_to_all;
    }
    return CommOperation::all_reduce;
}

class WhatIfPlan {
public:
    WhatIfPlan(const WhatIfSpec& spec, const ParallelLayout& layout);

    // The delay of a communication among `group` running `operation` inside `layer` (-1: in no layer): the sum of
    // the matching rules' delays. Each match is counted for unmatched_rule_warnings(). Asked for every communication
    // the compiler emits, so a scenario without delay rules answers at once.
    double delay_s(ParallelAxis group, CommOperation operation, int layer) {
        return spec_.collective_delays.empty() ? 0.0 : matched_delay_s(group, operation, layer);
    }

    // How many times as long the computations of `npu` take: the product of the factors of the rules naming it.
    [[nodiscard]] double compute_time_factor(std::int64_t npu) const;

    [[nodiscard]] bool degrades_links() const noexcept { return !spec_.degraded_links.empty(); }
    // Per topology dimension, the factor on the bandwidth of the slowest member of `npu`'s group along `axes`.
    [[nodiscard]] std::vector<double> group_bandwidth_factors(std::span<const ParallelAxis> axes, std::int64_t npu);
    // Per topology dimension, the factor on the bandwidth of a transfer between two NPUs: the slower end's.
    [[nodiscard]] std::vector<double> transfer_bandwidth_factors(std::int64_t from, std::int64_t to) const;

    // The NPU that stands for `stage` when one device per stage is simulated: the slowest one the rules name there
    // (the largest compute time factor, then the slowest links), so that the peers that wait for it at every
    // collective are represented by it; the stage's first NPU when the rules name none of it.
    [[nodiscard]] std::int64_t stage_representative(int stage) const;

    // A warning for each delay rule that matched no communication: it changed nothing, which should not pass
    // silently (a group of degree 1, a layer range on gradient buckets, …).
    [[nodiscard]] std::vector<Warning> unmatched_rule_warnings() const;

private:
    double matched_delay_s(ParallelAxis group, CommOperation operation, int layer);
    // The bandwidth factor of `npu`'s links on `dimension`.
    [[nodiscard]] double bandwidth_factor(std::int64_t npu, std::size_t dimension) const;
    // The same for an NPU no rule names: the product of the rules that name no NPU.
    [[nodiscard]] double unnamed_bandwidth_factor(std::size_t dimension) const;

    const WhatIfSpec& spec_;
    const ParallelLayout& layout_;
    std::vector<std::int64_t> delay_matches_;  // by rule
    std::unordered_map<std::int64_t, double> compute_time_factors_;
    std::vector<std::vector<std::int64_t>> rule_npus_;  // by degraded-links rule, increasing
    std::vector<std::int64_t> link_npus_;  // every NPU a degraded-links rule names, increasing
    // By the group's axes (their count and first one) and its first member.
    std::map<std::tuple<std::size_t, ParallelAxis, std::int64_t>, std::vector<double>> group_factors_;
};

}  // namespace parasight
