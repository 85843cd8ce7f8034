#include "analysis/timeline.h"

#include <algorithm>
#include <stdexcept>

namespace parasight {
namespace {

constexpr std::size_t poll_every = 0x10000;  // events between progress polls: a few milliseconds

}  // namespace

Timeline::Timeline(ExecutionGraph graph, EngineRun run, ParallelLayout layout)
    : graph_(std::move(graph)), run_(std::move(run)), layout_(std::move(layout)) {
    const Topology& topology = layout_.topology();
    devices_.reserve(graph_.devices.size());
    for (const SimulatedDevice& simulated : graph_.devices) {
        TimelineDevice device;
        device.npu = simulated.npu;
        device.stage = simulated.stage;
        device.weight = simulated.weight;
        for (std::size_t d = 0; d < topology.dimension_count(); ++d) {
            device.coordinates.push_back(static_cast<int>(topology.coordinate(simulated.npu, d)));
        }
        if (topology.dimension_count() > 1) device.node = simulated.npu / topology.place_value(1);
        for (const auto& axis : parallel_axis_names) {
            device.ranks[static_cast<std::size_t>(axis.value)] = layout_.rank_in_group(axis.value, simulated.npu);
        }
        devices_.push_back(std::move(device));
    }
}

std::shared_ptr<const Timeline> Timeline::build(ExecutionGraph graph, EngineRun run, ParallelLayout layout,
                                                TimelineDetail detail, const PhaseProgress& progress) {
    if (detail == TimelineDetail::none) return nullptr;
    auto timeline = std::make_shared<Timeline>(std::move(graph), std::move(run), std::move(layout));
    const bool dependencies = detail == TimelineDetail::events_and_dependencies;
    if (!timeline->index_lanes(progress.part(0.0, dependencies ? 0.4 : 1.0))) return nullptr;
    if (dependencies && !timeline->index_dependencies(progress.part(0.4, 1.0))) return nullptr;
    return timeline;
}

std::shared_ptr<const Timeline> Timeline::build_repeated(ExecutionGraph short_graph, EngineRun short_run,
                                                         RepeatedEvents repeated, ParallelLayout layout,
                                                         TimelineDetail detail, const PhaseProgress& progress) {
    if (detail == TimelineDetail::none) return nullptr;
    const SteadyPeriod& period = repeated.period();
    short_run.makespan_s += static_cast<double>(repeated.repeats()) * period.period_s;
    for (DeviceMemory& memory : short_run.memory) {
        if (!memory.timeline.empty()) {
            memory.timeline = repeated_memory_timeline(memory.timeline, period, repeated.repeats());
        }
    }
    auto timeline = std::make_shared<Timeline>(std::move(short_graph), std::move(short_run), std::move(layout));
    timeline->repeated_ = std::move(repeated);
    const bool dependencies = detail == TimelineDetail::events_and_dependencies;
    if (!timeline->index_lanes(progress.part(0.0, dependencies ? 0.4 : 1.0))) return nullptr;
    if (dependencies && !timeline->index_dependencies(progress.part(0.4, 1.0))) return nullptr;
    return timeline;
}

// Tasks on one device's stream run in the order they were added (as kernels on a CUDA stream), so sorting each
// lane by id sorts it by time: a counting sort by lane does it in two passes.
bool Timeline::index_lanes(const PhaseProgress& progress) {
    const std::size_t events = graph_.tasks.size();
    const double steps = 2.0 * static_cast<double>(events) + 1.0;
    lane_offsets_.assign(devices_.size() * stream_count + 1, 0);
    for (std::size_t t = 0; t < events; ++t) {
        if (t % poll_every == 0 && progress.report(static_cast<double>(t) / steps)) return false;
        const Task& task = graph_.tasks[t];
        ++lane_offsets_[static_cast<std::size_t>(task.device) * stream_count + static_cast<std::size_t>(task.stream) + 1];
    }
    for (std::size_t i = 1; i < lane_offsets_.size(); ++i) lane_offsets_[i] += lane_offsets_[i - 1];
    lane_events_.resize(events);
    std::vector<std::uint32_t> fill(lane_offsets_.begin(), lane_offsets_.end() - 1);
    for (std::size_t t = 0; t < events; ++t) {
        if (t % poll_every == 0 && progress.report(static_cast<double>(events + t) / steps)) return false;
        const Task& task = graph_.tasks[t];
        lane_events_[fill[static_cast<std::size_t>(task.device) * stream_count + static_cast<std::size_t>(task.stream)]++] =
            static_cast<EventId>(t);
    }
    if (repeated_) {
        // Each lane of the short run as the whole run's: its period repeated between the tasks before the boundary
        // and those after.
        std::vector<std::uint32_t> offsets{0};
        std::vector<EventId> lanes;
        lanes.reserve(repeated_->event_count());
        for (std::size_t slot = 0; slot + 1 < lane_offsets_.size(); ++slot) {
            repeated_->append_lane({lane_events_.data() + lane_offsets_[slot], lane_events_.data() + lane_offsets_[slot + 1]},
                                   lanes);
            offsets.push_back(static_cast<std::uint32_t>(lanes.size()));
        }
        lane_offsets_ = std::move(offsets);
        lane_events_ = std::move(lanes);
    }
    return !progress.report(1.0);
}

RepeatedEvents::Source Timeline::source(EventId id) const {
    if (id >= event_count()) throw std::out_of_range("Timeline: no such event");
    return repeated_ ? repeated_->source(id) : RepeatedEvents::Source{static_cast<TaskId>(id), 0};
}

// The graph keeps successors (what the engine needs); views ask the other way: what did this event wait for.
bool Timeline::index_dependencies(const PhaseProgress& whole_progress) {
    // A repeated run's short graph is a few of its micro-batches: what waited for each event takes the most.
    const PhaseProgress progress = repeated_ ? whole_progress.part(0.0, 0.2) : whole_progress;
    const std::size_t events = graph_.tasks.size();
    const double steps = 2.0 * static_cast<double>(events) + 1.0;
    std::vector<std::uint32_t> offsets(events + 1, 0);
    for (std::size_t t = 0; t < events; ++t) {
        if (t % poll_every == 0 && progress.report(static_cast<double>(t) / steps)) return false;
        const auto id = static_cast<TaskId>(t);
        for (const std::int32_t* s = graph_.successors_begin(id); s != graph_.successors_end(id); ++s) {
            ++offsets[static_cast<std::size_t>(*s) + 1];
        }
    }
    for (std::size_t i = 1; i < offsets.size(); ++i) offsets[i] += offsets[i - 1];
    predecessors_.resize(offsets.back());
    std::vector<std::uint32_t> fill(offsets.begin(), offsets.end() - 1);
    for (std::size_t t = 0; t < events; ++t) {
        if (t % poll_every == 0 && progress.report(static_cast<double>(events + t) / steps)) return false;
        const auto id = static_cast<TaskId>(t);
        for (const std::int32_t* s = graph_.successors_begin(id); s != graph_.successors_end(id); ++s) {
            predecessors_[fill[static_cast<std::size_t>(*s)]++] = static_cast<EventId>(t);
        }
    }
    predecessor_offsets_ = std::move(offsets);
    if (repeated_ && !index_repeated_successors(whole_progress.part(0.2, 1.0))) return false;
    return !whole_progress.report(1.0);
}

// What waited for each event of a repeated run, the other way round from what each waited for: the short graph's
// successors will not do, as its last micro-batches' tasks are followed by the optimizer step where the whole
// run's are followed by the next micro-batches'.
bool Timeline::index_repeated_successors(const PhaseProgress& progress) {
    const std::size_t events = repeated_->event_count();
    // Each dependency as (event, one that waited for it), made once (8 bytes a dependency while indexing): making what
    // each waited for twice, to count and then to place, took twice as long.
    std::vector<std::pair<EventId, EventId>> edges;
    edges.reserve(predecessors_.size() * events / std::max<std::size_t>(1, graph_.tasks.size()));
    std::vector<EventId> before;
    // Making the dependencies takes about 0.6 of this; counting and placing them the rest, polled as well (40 million
    // of them in the every-device GPT-3 run: 150-240 ms unpolled, past the 100 ms a cancel may take).
    const PhaseProgress making = progress.part(0.0, 0.6);
    for (std::size_t e = 0; e < events; ++e) {
        if (e % poll_every == 0 && making.report(static_cast<double>(e) / static_cast<double>(events))) return false;
        before.clear();
        append_waited_for(static_cast<EventId>(e), before);
        for (const EventId b : before) edges.emplace_back(b, static_cast<EventId>(e));
    }
    const double steps = 2.0 * static_cast<double>(edges.size()) + 1.0;
    const PhaseProgress placing = progress.part(0.6, 1.0);
    successor_offsets_.assign(events + 1, 0);
    for (std::size_t k = 0; k < edges.size(); ++k) {
        if (k % poll_every == 0 && placing.report(static_cast<double>(k) / steps)) return false;
        ++successor_offsets_[static_cast<std::size_t>(edges[k].first) + 1];
    }
    for (std::size_t i = 1; i < successor_offsets_.size(); ++i) successor_offsets_[i] += successor_offsets_[i - 1];
    successors_.resize(edges.size());
    std::vector<std::uint32_t> fill(successor_offsets_.begin(), successor_offsets_.end() - 1);
    for (std::size_t k = 0; k < edges.size(); ++k) {
        if (k % poll_every == 0 &&
            placing.report(static_cast<double>(edges.size() + k) / steps)) {
            return false;
        }
        const auto& [event, waiter] = edges[k];
        successors_[fill[event]++] = waiter;
    }
    return true;
}

std::span<const EventId> Timeline::lane(std::size_t device, Stream stream) const {
    const std::size_t slot = device * stream_count + static_cast<std::size_t>(stream);
    if (slot + 1 >= lane_offsets_.size()) throw std::out_of_range("Timeline::lane: no such device");
    return {lane_events_.data() + lane_offsets_[slot], lane_offsets_[slot + 1] - lane_offsets_[slot]};
}

TimelineEvent Timeline::event(EventId id) const {
    const RepeatedEvents::Source from = source(id);
    const Task& task = graph_.tasks[static_cast<std::size_t>(from.task)];
    const TaskTiming& timing = run_.timings[static_cast<std::size_t>(from.task)];
    const double shift_s = repeated_ ? repeated_->shift_s(from) : 0.0;
    TimelineEvent event;
    event.id = id;
    event.device = static_cast<std::size_t>(task.device);
    event.stream = task.stream;
    event.kind = task.kind;
    event.operation = graph_.labels[static_cast<std::size_t>(task.label)];
    event.layer = task.layer;
    event.micro_batch = repeated_ ? repeated_->micro_batch(from, task.micro_batch) : task.micro_batch;
    event.start_s = timing.start_s + shift_s;
    event.end_s = timing.end_s + shift_s;
    event.bytes = task.bytes;
    event.flops = task.flops;
    event.memory_bound_share = task.memory_bound_share;
    event.peers = task.peers;
    return event;
}

std::vector<std::int64_t> Timeline::members_across(std::int64_t npu, std::initializer_list<ParallelAxis> outer) const {
    std::vector<std::int64_t> ranks{npu};
    for (const ParallelAxis axis : outer) {
        std::vector<std::int64_t> reached;
        for (const std::int64_t rank : ranks) {
            for (const std::int64_t member : layout_.group_members(axis, rank)) reached.push_back(member);
        }
        ranks = std::move(reached);
    }
    std::vector<std::int64_t> members;
    for (const std::int64_t rank : ranks) {
        for (const std::int64_t member : layout_.group_members(ParallelAxis::dp, rank)) members.push_back(member);
    }
    return members;
}

std::vector<std::int64_t> Timeline::peers(EventId id) const {
    const Task& task = graph_.tasks[static_cast<std::size_t>(source(id).task)];
    const TimelineDevice& device = devices_[static_cast<std::size_t>(task.device)];
    const std::int64_t npu = device.npu;
    const int pp = layout_.degree(ParallelAxis::pp);
    const std::int64_t stage_stride = layout_.id_stride(ParallelAxis::pp);
    const auto stage_npu = [&](int stage) { return npu + (stage - device.stage) * stage_stride; };
    switch (task.peers) {
    case Peers::none: return {};
    case Peers::tp: return layout_.group_members(ParallelAxis::tp, npu);
    case Peers::cp: return layout_.group_members(ParallelAxis::cp, npu);
    case Peers::ep: return layout_.group_members(ParallelAxis::ep, npu);
    case Peers::dp: return layout_.group_members(ParallelAxis::dp, npu);
    case Peers::pp: return layout_.group_members(ParallelAxis::pp, npu);
    case Peers::data_and_expert: return members_across(npu, {ParallelAxis::ep});
    case Peers::data_and_context: return members_across(npu, {ParallelAxis::cp});
    case Peers::data_context_and_expert: return members_across(npu, {ParallelAxis::cp, ParallelAxis::ep});
    case Peers::next_stage: return {stage_npu((device.stage + 1) % pp)};
    case Peers::previous_stage: return {stage_npu((device.stage + pp - 1) % pp)};
    case Peers::embedding_partner: return {stage_npu(device.stage == 0 ? pp - 1 : 0)};
    }
    return {};
}

std::vector<EventId> Timeline::waited_on_by(EventId id) const {
    std::vector<EventId> successors;
    if (predecessor_offsets_.empty()) return successors;
    if (repeated_) {
        if (id >= event_count()) throw std::out_of_range("Timeline: no such event");
        successors.assign(successors_.begin() + successor_offsets_[id], successors_.begin() + successor_offsets_[id + 1]);
        return successors;
    }
    const auto task = static_cast<TaskId>(id);
    for (const std::int32_t* s = graph_.successors_begin(task); s != graph_.successors_end(task); ++s) {
        successors.push_back(static_cast<EventId>(*s));
    }
    return successors;
}

std::vector<EventId> Timeline::waited_for(EventId id) const {
    std::vector<EventId> predecessors;
    if (!predecessor_offsets_.empty()) append_waited_for(id, predecessors);
    return predecessors;
}

void Timeline::append_waited_for(EventId id, std::vector<EventId>& events) const {
    const RepeatedEvents::Source from = source(id);
    const auto task = static_cast<std::size_t>(from.task);
    for (std::uint32_t p = predecessor_offsets_[task]; p < predecessor_offsets_[task + 1]; ++p) {
        if (repeated_) {
            repeated_->append_predecessor(graph_, from, static_cast<TaskId>(predecessors_[p]), events);
        } else {
            events.push_back(predecessors_[p]);
        }
    }
}

const TransferShape* Timeline::transfer_shape(EventId id) const {
    const std::int32_t shape = graph_.tasks[static_cast<std::size_t>(source(id).task)].transfer_shape;
    return shape < 0 ? nullptr : &graph_.transfer_shapes[static_cast<std::size_t>(shape)];
}

std::span<const MemorySample> Timeline::memory(std::size_t device) const { return run_.memory.at(device).timeline; }

}  // namespace parasight
