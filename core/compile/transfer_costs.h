#pragma once
// What communication costs on the scenario's topology, and on its copies with links the what-if rules degrade, each
// distinct question answered once: a collective's time over a rank group and the traffic it puts on each dimension,
// a point-to-point transfer's time and the dimensions it crosses. Each answer's traffic is added to the graph as a
// transfer shape (ExecutionGraph::transfer_shapes) that the tasks of that shape share. Internal to core/compile: the
// graph builder asks, tasks carry the answers.

#include "collective/collective_op.h"
#include "collective/point_to_point.h"
#include "compile/execution_graph.h"
#include "compile/what_if_plan.h"
#include "scenario/scenario.h"
#include "topology/parallel_layout.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

namespace parasight {

// The ranks a collective runs among: one parallel axis (in ParallelAxis order), or data and expert parallelism
// together — what dense-layer gradients are reduced over when experts are split across ep ranks.
enum class RankGroup : std::uint8_t { tp, cp, ep, dp, pp, data_and_expert, data_and_context, data_context_and_expert };
inline constexpr std::size_t rank_group_count = 8;

// The parallel axes of a rank group.
[[nodiscard]] inline std::span<const ParallelAxis> axes_of(RankGroup group) {
    static constexpr std::array<ParallelAxis, 6> single{ParallelAxis::tp, ParallelAxis::cp, ParallelAxis::ep,
                                                        ParallelAxis::dp, ParallelAxis::pp, ParallelAxis::dp};
    static constexpr std::array<ParallelAxis, 2> data_and_expert{ParallelAxis::dp, ParallelAxis::ep};
    static constexpr std::array<ParallelAxis, 2> data_and_context{ParallelAxis::dp, ParallelAxis::cp};
    static constexpr std::array<ParallelAxis, 3> data_context_and_expert{ParallelAxis::dp, ParallelAxis::cp,
                                                                         ParallelAxis::ep};
    if (group == RankGroup::data_and_expert) return data_and_expert;
    if (group == RankGroup::data_and_context) return data_and_context;
    if (group == RankGroup::data_context_and_expert) return data_context_and_expert;
    return {&single[static_cast<std::size_t>(group)], 1};
}

// The group dense gradients are reduced over (and ZeRO shards them over): dp, with cp and ep where they are split
// (stage_parameters.h, dense_replicas); data_group: dp, with cp (data_replicas) — an expert's gradients, and ZeRO-3's
// layer gathers.
[[nodiscard]] RankGroup dense_gradient_group(const ParallelismSpec& parallelism) noexcept;
[[nodiscard]] RankGroup data_group(const ParallelismSpec& parallelism) noexcept;

class TransferCosts {
public:
    // `shapes` is the graph's list, which the answers extend; it and the other arguments outlive this object.
    TransferCosts(const Scenario& scenario, const ParallelLayout& layout, WhatIfPlan& what_if,
                  std::vector<TransferShape>& shapes);

    struct Collective {
        double time_s = 0.0;
        std::int32_t shape = -1;
    };
    // `op` of `bytes` over `group`, as NPU `npu`'s group runs it (its links may be degraded). Asked for every
    // collective task: the answers already given are looked up here, the rest costed out of line.
    [[nodiscard]] Collective collective(RankGroup group, CollectiveOp op, double bytes, std::int64_t npu) {
        const std::int32_t network_id = what_if_.degrades_links() ? degraded_network(group, npu) : 0;
        const auto& costed_before =
            collectives_[static_cast<std::size_t>(group) * collective_op_count + static_cast<std::size_t>(op)];
        for (const CostedCollective& entry : costed_before) {
            if (entry.bytes == bytes && entry.network == network_id) return entry.cost;
        }
        return cost_collective(group, op, bytes, network_id);
    }

    struct PointToPoint {
        PointToPointCost cost;
        std::uint32_t dimension_mask = 0;
        std::int32_t shape = -1;
    };
    [[nodiscard]] PointToPoint point_to_point(std::int64_t from, std::int64_t to, double bytes);

    // The dimensions a group kind's collectives use, as a bit mask.
    [[nodiscard]] std::uint32_t axis_mask(RankGroup group) {
        const auto& mask = axis_masks_[static_cast<std::size_t>(group)];
        return mask ? *mask : find_axis_mask(group);
    }

private:
    // The topology with each dimension's bandwidth scaled by `factors`, as an index into networks_: 0, the scenario's
    // own, when every factor is 1.
    [[nodiscard]] std::int32_t network(const std::vector<double>& factors);
    [[nodiscard]] std::int32_t add_shape(TransferShape shape);
    // The network `npu`'s group runs its collectives on when links are degraded (network()).
    [[nodiscard]] std::int32_t degraded_network(RankGroup group, std::int64_t npu);
    // A collective not costed before: costed, its shape added, and kept for the next time it is asked.
    [[nodiscard]] Collective cost_collective(RankGroup group, CollectiveOp op, double bytes, std::int32_t network_id);
    [[nodiscard]] std::uint32_t find_axis_mask(RankGroup group);

    const Scenario& scenario_;
    const ParallelLayout& layout_;
    WhatIfPlan& what_if_;  // caches each group's factors as it is asked
    std::vector<TransferShape>& shapes_;
    std::vector<Topology> networks_;  // the scenario's topology, then those with degraded links
    std::map<std::vector<double>, std::int32_t> network_ids_;
    // Each distinct collective once, by group and op, then bytes and network: a layer's few collectives recur in
    // every micro-batch, so a short list per group and op is searched (most hold one to three).
    struct CostedCollective {
        double bytes = 0.0;
        std::int32_t network = 0;
        Collective cost;
    };
    static constexpr std::size_t collective_op_count = std::tuple_size_v<decltype(collective_op_names)>;
    std::array<std::vector<CostedCollective>, rank_group_count * collective_op_count> collectives_;
    // by dimensions crossed, bytes and network
    std::map<std::tuple<std::uint32_t, double, std::int32_t>, std::int32_t> point_to_point_shapes_;
    std::array<std::optional<std::uint32_t>, rank_group_count> axis_masks_;
};

}  // namespace parasight
