#include "analysis/dimension_traffic.h"

#include <algorithm>

namespace parasight {

namespace {

// The parallel group a transfer runs in, by whom it exchanges with: the tied embedding's all-reduce between the
// first and last stages is no group's.
std::optional<CommGroup> group_of(Peers peers) {
    switch (peers) {
    case Peers::tp: return CommGroup::tp;
    case Peers::cp: return CommGroup::cp;
    case Peers::ep: return CommGroup::ep;
    case Peers::dp:
    case Peers::data_and_expert:
    case Peers::data_and_context:
    case Peers::data_context_and_expert: return CommGroup::dp;
    case Peers::pp:
    case Peers::next_stage:
    case Peers::previous_stage: return CommGroup::pp;
    case Peers::none:
    case Peers::embedding_partner: return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace

TrafficReport dimension_traffic(const Timeline& timeline, std::size_t dimension_count,
                                const IdenticalDevices* classes) {
    TrafficReport report;
    report.dimensions.assign(dimension_count, DimensionTraffic{});
    std::array<std::vector<double>, comm_group_count> group_time_s;
    for (auto& times : group_time_s) times.assign(dimension_count, 0.0);
    const double iteration_s = timeline.iteration_time_s();
    double weights = 0.0;
    // By dimension: the device's transfers on it, merged below where they overlap (two streams may use it at once).
    std::vector<std::vector<std::pair<double, double>>> intervals(dimension_count);
    std::vector<double> bytes(dimension_count);
    for (const auto& [device, weight] : devices_to_read(timeline, classes)) {
        weights += weight;
        for (auto& on_dimension : intervals) on_dimension.clear();
        std::fill(bytes.begin(), bytes.end(), 0.0);
        // One pass over the device's transfers, each adding to the dimensions it uses.
        for (const Stream stream : {Stream::feature_comm, Stream::gradient_comm}) {
            for (const EventId id : timeline.lane(device, stream)) {
                const TransferShape* shape = timeline.transfer_shape(id);
                if (shape == nullptr) continue;
                const TimelineEvent event = timeline.event(id);
                const auto group = group_of(event.peers);
                for (std::size_t d = 0; d < std::min(dimension_count, shape->bytes_by_dimension.size()); ++d) {
                    if (shape->bytes_by_dimension[d] <= 0.0 && shape->time_by_dimension_s[d] <= 0.0) continue;
                    bytes[d] += shape->bytes_by_dimension[d];
                    intervals[d].emplace_back(event.start_s, event.end_s);
                    if (group) group_time_s[static_cast<std::size_t>(*group)][d] += weight * shape->time_by_dimension_s[d];
                }
            }
        }
        for (std::size_t d = 0; d < dimension_count; ++d) {
            std::sort(intervals[d].begin(), intervals[d].end());
            double busy_s = 0.0;
            double reach_s = -1.0;
            for (const auto& [start_s, end_s] : intervals[d]) {
                if (start_s > reach_s) {
                    busy_s += end_s - start_s;
                } else if (end_s > reach_s) {
                    busy_s += end_s - reach_s;
                }
                reach_s = std::max(reach_s, end_s);
            }
            report.dimensions[d].bytes_per_npu += weight * bytes[d];
            report.dimensions[d].busy_fraction += weight * (iteration_s > 0.0 ? busy_s / iteration_s : 0.0);
        }
    }
    if (weights > 0.0) {
        for (DimensionTraffic& dimension : report.dimensions) {
            dimension.bytes_per_npu /= weights;
            dimension.busy_fraction /= weights;
        }
    }
    for (std::size_t g = 0; g < comm_group_count; ++g) {
        const auto& times = group_time_s[g];
        const auto longest = std::max_element(times.begin(), times.end());
        if (longest != times.end() && *longest > 0.0) {
            report.bottleneck_dimension[g] = static_cast<std::size_t>(longest - times.begin());
        }
    }
    return report;
}

}  // namespace parasight
