#include "compile/transfer_costs.h"

#include "collective/group_collective.h"

#include <algorithm>

namespace parasight {

RankGroup dense_gradient_group(const ParallelismSpec& parallelism) noexcept {
    if (parallelism.cp > 1) return parallelism.ep > 1 ? RankGroup::data_context_and_expert : RankGroup::data_and_context;
    return parallelism.ep > 1 ? RankGroup::data_and_expert : RankGroup::dp;
}

RankGroup data_group(const ParallelismSpec& parallelism) noexcept {
    return parallelism.cp > 1 ? RankGroup::data_and_context : RankGroup::dp;
}

TransferCosts::TransferCosts(const Scenario& scenario, const ParallelLayout& layout, WhatIfPlan& what_if,
                             std::vector<TransferShape>& shapes)
    : scenario_(scenario), layout_(layout), what_if_(what_if), shapes_(shapes), networks_{layout.topology()} {}

std::int32_t TransferCosts::degraded_network(RankGroup group, std::int64_t npu) {
    return network(what_if_.group_bandwidth_factors(axes_of(group), npu));
}

TransferCosts::Collective TransferCosts::cost_collective(RankGroup group, CollectiveOp op, double bytes,
                                                         std::int32_t network_id) {
    const auto spans = layout_.spans(axes_of(group));
    const CollectivePlan plan{scenario_.cluster.multi_dimension_collectives, scenario_.simulation.collective_chunks};
    const CollectiveCost cost =
        group_collective(op, bytes, networks_[static_cast<std::size_t>(network_id)], spans, plan);
    TransferShape shape;
    shape.bytes_by_dimension.assign(layout_.topology().dimension_count(), 0.0);
    shape.time_by_dimension_s.assign(layout_.topology().dimension_count(), 0.0);
    for (const DimensionCollectiveCost& dimension : cost.per_dim) {
        shape.bytes_by_dimension[dimension.dimension] += dimension.bytes_sent;
        shape.time_by_dimension_s[dimension.dimension] += dimension.time_s;
        const bool listed = std::any_of(shape.methods.begin(), shape.methods.end(),
                                        [&](const TransferShape::DimensionMethod& method) {
                                            return method.dimension == dimension.dimension;
                                        });
        if (!listed) shape.methods.push_back({dimension.dimension, dimension.algorithm, dimension.protocol});
    }
    std::sort(shape.methods.begin(), shape.methods.end(),
              [](const TransferShape::DimensionMethod& a, const TransferShape::DimensionMethod& b) {
                  return a.dimension < b.dimension;
              });
    shape.op = op;
    shape.ranks = cost.ranks;
    const Collective costed{cost.time_s, add_shape(std::move(shape))};
    collectives_[static_cast<std::size_t>(group) * collective_op_count + static_cast<std::size_t>(op)].push_back(
        CostedCollective{bytes, network_id, costed});
    return costed;
}

TransferCosts::PointToPoint TransferCosts::point_to_point(std::int64_t from, std::int64_t to, double bytes) {
    const std::int32_t id = what_if_.degrades_links() ? network(what_if_.transfer_bandwidth_factors(from, to)) : 0;
    const Topology& topology = networks_[static_cast<std::size_t>(id)];
    PointToPoint transfer;
    transfer.cost = parasight::point_to_point(topology, from, to, bytes);
    for (std::size_t d = 0; d < topology.dimension_count(); ++d) {
        if (topology.coordinate(from, d) != topology.coordinate(to, d)) transfer.dimension_mask |= 1U << d;
    }
    const auto key = std::tuple(transfer.dimension_mask, bytes, id);
    if (const auto it = point_to_point_shapes_.find(key); it != point_to_point_shapes_.end()) {
        transfer.shape = it->second;
        return transfer;
    }
    // The whole message crosses every dimension on the way, at that dimension's bandwidth and latency.
    TransferShape shape;
    shape.bytes_by_dimension.assign(layout_.topology().dimension_count(), 0.0);
    shape.time_by_dimension_s.assign(layout_.topology().dimension_count(), 0.0);
    for (std::size_t d = 0; d < topology.dimension_count(); ++d) {
        if ((transfer.dimension_mask & (1U << d)) == 0) continue;
        const Dimension& dimension = topology.dimensions()[d];
        shape.bytes_by_dimension[d] = bytes;
        const double bandwidth_Bps = achievable_bandwidth_Bps(dimension);
        const double transfer_s = bandwidth_Bps > 0.0 ? bytes / bandwidth_Bps : 0.0;
        shape.time_by_dimension_s[d] = step_latency_s(dimension, 1) + transfer_s;
    }
    transfer.shape = add_shape(std::move(shape));
    point_to_point_shapes_.emplace(key, transfer.shape);
    return transfer;
}

std::int32_t TransferCosts::network(const std::vector<double>& factors) {
    if (std::all_of(factors.begin(), factors.end(), [](double factor) { return factor == 1.0; })) return 0;
    if (const auto it = network_ids_.find(factors); it != network_ids_.end()) return it->second;
    std::vector<Dimension> dimensions = layout_.topology().dimensions();
    for (std::size_t d = 0; d < dimensions.size(); ++d) dimensions[d].bandwidth_Bps *= factors[d];
    networks_.emplace_back(std::move(dimensions));
    const auto id = static_cast<std::int32_t>(networks_.size() - 1);
    network_ids_.emplace(factors, id);
    return id;
}

std::int32_t TransferCosts::add_shape(TransferShape shape) {
    shapes_.push_back(std::move(shape));
    return static_cast<std::int32_t>(shapes_.size() - 1);
}

std::uint32_t TransferCosts::find_axis_mask(RankGroup group) {
    std::uint32_t mask = 0U;
    for (const DimensionSpan& span : layout_.spans(axes_of(group))) mask |= 1U << span.dimension;
    axis_masks_[static_cast<std::size_t>(group)] = mask;
    return mask;
}

}  // namespace parasight
