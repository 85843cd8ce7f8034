#include "analysis/collective_table.h"

#include "collective/collective_op.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace parasight {

std::string method_text(const TransferShape& shape) {
    if (shape.methods.empty()) return "point to point";
    std::string text;
    for (const TransferShape::DimensionMethod& method : shape.methods) {
        if (!text.empty()) text += ", ";
        if (shape.methods.size() > 1) text += "dim " + std::to_string(method.dimension) + " ";
        text += std::string(to_string(method.algorithm)) + " · " + std::string(to_string(method.protocol));
    }
    return text;
}

std::vector<CollectiveRow> collective_table(const Timeline& timeline, const IdenticalDevices* classes) {
    struct Sums {
        std::int64_t ranks = 2;
        std::optional<CollectiveOp> op;
        double weighted_calls = 0.0;
        double weighted_bytes = 0.0;
        double weighted_time_s = 0.0;
        std::vector<const TransferShape*> shapes;  // distinct, in the order first met
    };
    std::map<std::tuple<std::size_t, std::string>, Sums> by_kind;
    double weights = 0.0;
    for (const auto& [device, weight] : devices_to_read(timeline, classes)) {
        weights += weight;
        for (const Stream stream : {Stream::feature_comm, Stream::gradient_comm}) {
            for (const EventId id : timeline.lane(device, stream)) {
                const TimelineEvent event = timeline.event(id);
                const std::optional<CommGroup> group = comm_group_of(event.kind);
                if (!group) continue;  // an injected delay
                Sums& sums = by_kind[{static_cast<std::size_t>(*group), std::string(event.operation)}];
                if (const TransferShape* shape = timeline.transfer_shape(id)) {
                    sums.ranks = shape->ranks;
                    sums.op = shape->op;
                    if (std::find(sums.shapes.begin(), sums.shapes.end(), shape) == sums.shapes.end()) {
                        sums.shapes.push_back(shape);
                    }
                }
                sums.weighted_calls += weight;
                sums.weighted_bytes += weight * event.bytes;
                sums.weighted_time_s += weight * (event.end_s - event.start_s);
            }
        }
    }
    std::vector<CollectiveRow> rows;
    for (const auto& [key, sums] : by_kind) {
        CollectiveRow row;
        row.group = static_cast<CommGroup>(std::get<0>(key));
        row.operation = std::get<1>(key);
        row.ranks = sums.ranks;
        row.calls_per_device = weights > 0.0 ? sums.weighted_calls / weights : 0.0;
        row.bytes_per_call = sums.weighted_bytes / sums.weighted_calls;
        row.time_per_call_s = sums.weighted_time_s / sums.weighted_calls;
        row.algbw_Bps = row.time_per_call_s > 0.0 ? row.bytes_per_call / row.time_per_call_s : 0.0;
        // A send's bus bandwidth is its algorithm bandwidth; a collective's, nccl-tests' factor of it.
        row.busbw_Bps = row.algbw_Bps * (sums.op ? bus_bandwidth_factor(*sums.op, sums.ranks) : 1.0);
        std::vector<std::string> methods;
        for (const TransferShape* shape : sums.shapes) {
            std::string text = method_text(*shape);
            if (std::find(methods.begin(), methods.end(), text) == methods.end()) methods.push_back(std::move(text));
        }
        for (const std::string& text : methods) row.method += (row.method.empty() ? "" : " or ") + text;
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace parasight
