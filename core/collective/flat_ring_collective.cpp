#include "collective/flat_ring_collective.h"

#include "collective/phase_cost.h"

#include <algorithm>

namespace parasight {
namespace {

struct SpanShare {
    double bytes = 0.0;  // this NPU's bytes over the span's dimension
    int steps = 0;       // ring steps whose edge lies on it
};

// Π_{j∈[first, last)} m_j.
long long members_product(std::span<const DimensionSpan> spans, std::size_t first, std::size_t last) {
    long long product = 1;
    for (std::size_t j = first; j < last; ++j) product *= spans[j].members;
    return product;
}

SpanShare span_share(CollectiveOp op, double size_bytes, std::span<const DimensionSpan> spans, std::size_t i,
                     long long n) {
    const std::size_t k = spans.size();
    const bool outermost = i + 1 == k;
    // Chain edges on span i: its coordinate changes while every span outside it stays put.
    const long long chain_edges = (spans[i].members - 1) * members_product(spans, i + 1, k);
    const double nd = static_cast<double>(n);
    SpanShare share;
    switch (op) {
    case CollectiveOp::all_reduce:
    case CollectiveOp::reduce_scatter:
    case CollectiveOp::all_gather: {
        const int passes = op == CollectiveOp::all_reduce ? 2 : 1;  // reduce-scatter then all-gather
        const auto ring_edges = static_cast<double>(chain_edges + (outermost ? 1 : 0));
        share.bytes = passes * (nd - 1.0) / nd * size_bytes * ring_edges / nd;
        share.steps = static_cast<int>(passes * chain_edges);
        break;
    }
    case CollectiveOp::broadcast:
        // A pipelined chain from the root: the whole buffer crosses each of its n−1 edges once.
        share.bytes = size_bytes * static_cast<double>(chain_edges) / nd;
        share.steps = static_cast<int>(chain_edges);
        break;
    case CollectiveOp::all_to_all: {
        // Direct sends, each over its own NPU's links: the shares for members whose outermost differing coordinate is
        // on span i cross dimension i; all go out in one round.
        const long long destinations = (spans[i].members - 1) * members_product(spans, 0, i);
        share.bytes = size_bytes / nd * static_cast<double>(destinations);
        share.steps = 1;
        break;
    }
    }
    return share;
}

}  // namespace

CollectiveCost flat_ring_collective(CollectiveOp op, double size_bytes, const Topology& topology,
                                    std::span<const DimensionSpan> spans) {
    CollectiveCost result;
    result.op = op;
    result.size_bytes = size_bytes;
    for (const DimensionSpan& span : spans) result.ranks *= span.members;
    if (spans.empty() || result.ranks <= 1) return result;

    double slowest_transfer_s = 0.0;
    double latency_s = 0.0;
    for (std::size_t i = 0; i < spans.size(); ++i) {
        const Dimension& link = topology.dimensions().at(spans[i].dimension);
        const GroupDimension group{link, spans[i].members, spans[i].stride};
        const SpanShare share = span_share(op, size_bytes, spans, i, result.ranks);
        const double bandwidth_Bps = achievable_bandwidth_Bps(link);
        const double transfer_s = bandwidth_Bps > 0.0 ? share.bytes / bandwidth_Bps : 0.0;
        const double span_latency_s = share.steps * step_latency_s(link, ring_step_hops(group));
        // An all-to-all's single round waits for its slowest path; the ring's steps follow one another.
        latency_s = op == CollectiveOp::all_to_all ? std::max(latency_s, span_latency_s) : latency_s + span_latency_s;
        slowest_transfer_s = std::max(slowest_transfer_s, transfer_s);

        DimensionCollectiveCost dimension_cost;
        dimension_cost.dimension = spans[i].dimension;
        dimension_cost.kind = link.kind;
        dimension_cost.algorithm =
            op == CollectiveOp::all_to_all ? CollectiveAlgorithm::direct : CollectiveAlgorithm::ring;
        dimension_cost.members = spans[i].members;
        dimension_cost.bytes_sent = share.bytes;
        dimension_cost.time_s = transfer_s + span_latency_s;
        result.per_dim.push_back(dimension_cost);
    }
    result.time_s = slowest_transfer_s + latency_s;
    set_bandwidths(result);
    return result;
}

}  // namespace parasight
