#include "collective/hierarchical_collective.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace parasight {
namespace {

struct Stage {
    std::size_t span_index = 0;
    PhaseCost cost;
};

GroupDimension group_dimension(const Topology& topology, const DimensionSpan& span) {
    return GroupDimension{topology.dimensions().at(span.dimension), span.members, span.stride};
}

// The phases in the order a chunk runs through them (ASTRA-sim 2.0 §II-C: RS ascending, AG descending).
std::vector<Stage> plan_stages(CollectiveOp op, double size_bytes, const Topology& topology,
                               std::span<const DimensionSpan> spans) {
    const std::size_t k = spans.size();
    // data_in[i]: the buffer entering dimension i after the reduce-scatters below it.
    std::vector<double> data_in(k, size_bytes);
    for (std::size_t i = 1; i < k; ++i) data_in[i] = data_in[i - 1] / spans[i - 1].members;

    std::vector<Stage> stages;
    auto add = [&](std::size_t i, CollectiveOp phase, double bytes) {
        stages.push_back(Stage{i, phase_cost(phase, bytes, group_dimension(topology, spans[i]))});
    };
    switch (op) {
    case CollectiveOp::all_reduce:
        for (std::size_t i = 0; i + 1 < k; ++i) add(i, CollectiveOp::reduce_scatter, data_in[i]);
        add(k - 1, CollectiveOp::all_reduce, data_in[k - 1]);
        for (std::size_t i = k - 1; i-- > 0;) add(i, CollectiveOp::all_gather, data_in[i]);
        break;
    case CollectiveOp::reduce_scatter:
        for (std::size_t i = 0; i < k; ++i) add(i, CollectiveOp::reduce_scatter, data_in[i]);
        break;
    case CollectiveOp::all_gather:
        for (std::size_t i = k; i-- > 0;) add(i, CollectiveOp::all_gather, data_in[i]);
        break;
    case CollectiveOp::all_to_all:
        // Every dimension permutes the whole buffer.
        for (std::size_t i = 0; i < k; ++i) add(i, CollectiveOp::all_to_all, size_bytes);
        break;
    case CollectiveOp::broadcast:
        for (std::size_t i = k; i-- > 0;) add(i, CollectiveOp::broadcast, size_bytes);
        break;
    }
    return stages;
}

// List scheduling of chunks through the stages: a dimension serves one chunk-phase at a time; a chunk moves on to its
// next phase after the phase's serialization (which occupies the dimension) and its latency (which does not).
double pipelined_time_s(const std::vector<Stage>& stages, std::size_t dimension_count, int chunks) {
    const auto chunk_count = static_cast<std::size_t>(chunks);
    std::vector<std::size_t> next_stage(chunk_count, 0);
    std::vector<double> ready_s(chunk_count, 0.0);
    std::vector<double> dimension_free_s(dimension_count, 0.0);
    std::size_t remaining = chunk_count * stages.size();
    while (remaining-- > 0) {
        // The first chunk with a phase left is chosen unless another starts earlier, so that a start time that is
        // infinite or NaN (a rate that underflowed) still picks a chunk that has work left.
        std::size_t chosen = chunk_count;
        double chosen_start_s = 0.0;
        for (std::size_t c = 0; c < chunk_count; ++c) {
            if (next_stage[c] == stages.size()) continue;
            const double start_s = std::max(ready_s[c], dimension_free_s[stages[next_stage[c]].span_index]);
            if (chosen == chunk_count || start_s < chosen_start_s) {
                chosen_start_s = start_s;
                chosen = c;
            }
        }
        const Stage& stage = stages[next_stage[chosen]];
        const double occupied_until_s = chosen_start_s + stage.cost.serialization_s / chunks;
        dimension_free_s[stage.span_index] = occupied_until_s;
        ready_s[chosen] = occupied_until_s + stage.cost.latency_s;
        ++next_stage[chosen];
    }
    return *std::max_element(ready_s.begin(), ready_s.end());
}

}  // namespace

CollectiveCost hierarchical_collective(CollectiveOp op, double size_bytes, const Topology& topology,
                                       std::span<const DimensionSpan> spans, int chunks) {
    if (chunks < 1) throw std::invalid_argument("a collective needs at least one chunk");
    CollectiveCost result;
    result.op = op;
    result.size_bytes = size_bytes;
    for (const DimensionSpan& span : spans) result.ranks *= span.members;
    if (spans.empty() || result.ranks <= 1) return result;

    const std::vector<Stage> stages = plan_stages(op, size_bytes, topology, spans);
    for (std::size_t i = 0; i < spans.size(); ++i) {
        DimensionCollectiveCost dimension_cost;
        dimension_cost.dimension = spans[i].dimension;
        dimension_cost.kind = topology.dimensions()[spans[i].dimension].kind;
        dimension_cost.members = spans[i].members;
        bool first = true;
        for (const Stage& stage : stages) {
            if (stage.span_index != i) continue;
            if (first) {
                dimension_cost.algorithm = stage.cost.algorithm;
                dimension_cost.protocol = stage.cost.protocol;
            }
            first = false;
            dimension_cost.bytes_sent += stage.cost.bytes_sent;
            dimension_cost.time_s += stage.cost.time_s();
        }
        result.per_dim.push_back(dimension_cost);
    }
    result.time_s = pipelined_time_s(stages, spans.size(), chunks);
    set_bandwidths(result);
    return result;
}

}  // namespace parasight
