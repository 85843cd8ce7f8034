#include "analysis/layer_times.h"

namespace parasight {

namespace {

void add(PassTimes& times, TaskKind kind, double seconds) {
    switch (kind) {
    case TaskKind::forward: times.forward_s += seconds; break;
    case TaskKind::backward:
    case TaskKind::weight_gradient: times.backward_s += seconds; break;  // a layer's backward holds its W
    case TaskKind::recompute: times.recompute_s += seconds; break;
    default: break;
    }
}

}  // namespace

std::vector<LayerTimes> layer_times(const Timeline& timeline) {
    std::vector<LayerTimes> times;
    std::vector<int> ran_on;  // by layer: the device counted, or -1
    for (std::size_t device = 0; device < timeline.devices().size(); ++device) {
        for (const EventId id : timeline.lane(device, Stream::compute)) {
            const TimelineEvent event = timeline.event(id);
            if (event.layer < 0) continue;
            const auto layer = static_cast<std::size_t>(event.layer);
            if (layer >= times.size()) {
                times.resize(layer + 1);
                ran_on.resize(layer + 1, -1);
            }
            if (ran_on[layer] < 0) ran_on[layer] = static_cast<int>(device);
            if (ran_on[layer] != static_cast<int>(device)) continue;
            const double seconds = event.end_s - event.start_s;
            add(times[layer].layer, event.kind, seconds);
            if (event.operation.starts_with("attention")) add(times[layer].attention, event.kind, seconds);
            if (event.operation.starts_with("mlp")) add(times[layer].mlp, event.kind, seconds);
        }
    }
    return times;
}

}  // namespace parasight
