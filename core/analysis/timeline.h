#pragma once
// The Timeline of one simulated iteration: per simulated device and stream, its events in time order — kind,
// operation, layer, micro-batch, start, end, bytes, FLOPs, whom it communicates with and what it waited for — and the
// device's memory over time. It is what views (the Gantt chart), the trace writer and other exports read; they never
// see the compiler's tasks. Immutable once built, so many threads may read one (share it as shared_ptr<const>).
//
// It keeps the execution graph and the engine's run it was made from (moved in, not copied) and indexes them: a lane
// per device and stream (4 bytes an event), and on request the dependencies (about 8 bytes an event more). Made from a
// short run and its steady period (build_repeated()), it shows the whole schedule and keeps only the short run: the
// repeated events are made when asked for, by shifting the period's (analysis/repeated_events.h); only their lanes
// are kept (4 bytes an event), and with the dependencies what waited for each event (about 8 bytes an event).

#include "analysis/repeated_events.h"
#include "common/progress.h"
#include "compile/execution_graph.h"
#include "engine/engine.h"
#include "topology/parallel_layout.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace parasight {

using EventId = std::uint32_t;

struct TimelineDevice {
    std::int64_t npu = 0;
    int stage = 0;
    double weight = 1.0;                 // real devices it stands for (its symmetry class)
    std::vector<int> coordinates;        // in the topology, dimension 0 first
    // The node it sits in: NPUs that differ only in dimension 0 (the innermost, e.g. NVLink inside a server) share
    // one; numbered from 0 in NPU order (NPU / size of dimension 0). All NPUs are node 0 in a one-dimension topology.
    std::int64_t node = 0;
    std::array<int, 5> ranks{};          // in its tp, cp, ep, dp and pp groups (ParallelAxis order)
};

struct TimelineEvent {
    EventId id = 0;
    std::size_t device = 0;              // index into Timeline::devices()
    Stream stream = Stream::compute;
    TaskKind kind = TaskKind::forward;
    std::string_view operation;          // "attention forward", "tp all-reduce", …
    int layer = -1;                      // model layer, or -1 (embedding, logits, optimizer, …)
    int micro_batch = -1;                // or -1
    double start_s = 0.0;
    double end_s = 0.0;
    double bytes = 0.0;                  // moved (communication) or streamed (optimizer)
    double flops = 0.0;                  // hardware FLOPs, recompute included
    double memory_bound_share = 0.0;     // of a computation's time, what the device's memory bounds (local memory)
    Peers peers = Peers::none;           // whom it communicates with: Timeline::peers() lists them
};

enum class TimelineDetail : std::uint8_t {
    none,                     // keep only the Report (sweeps)
    events,                   // lanes of events, peers and memory
    events_and_dependencies,  // also what each event waited for
};

class Timeline {
public:
    // Indexes `graph` and `run`, which it keeps. nullptr when `progress` asks to stop (it is polled once per
    // 65 536 events).
    [[nodiscard]] static std::shared_ptr<const Timeline> build(ExecutionGraph graph, EngineRun run,
                                                               ParallelLayout layout, TimelineDetail detail,
                                                               const PhaseProgress& progress);
    // The whole schedule from a short run (`short_graph` and its run) and the events its steady period repeats
    // (`repeated`, made from them): the same events as the whole run's, made on demand. `short_run`'s memory
    // samples, when it has them, become the whole run's.
    [[nodiscard]] static std::shared_ptr<const Timeline> build_repeated(ExecutionGraph short_graph, EngineRun short_run,
                                                                        RepeatedEvents repeated, ParallelLayout layout,
                                                                        TimelineDetail detail,
                                                                        const PhaseProgress& progress);

    [[nodiscard]] double iteration_time_s() const noexcept { return run_.makespan_s; }
    [[nodiscard]] std::size_t event_count() const noexcept {
        return repeated_ ? repeated_->event_count() : graph_.tasks.size();
    }
    [[nodiscard]] const std::vector<TimelineDevice>& devices() const noexcept { return devices_; }
    // The events of one device's stream, in time order (a stream runs one event at a time).
    [[nodiscard]] std::span<const EventId> lane(std::size_t device, Stream stream) const;
    [[nodiscard]] TimelineEvent event(EventId id) const;
    // The NPUs an event exchanges data with: its collective group's members by rank (itself included), or the
    // point-to-point partner; empty for computation.
    [[nodiscard]] std::vector<std::int64_t> peers(EventId id) const;
    [[nodiscard]] bool has_dependencies() const noexcept { return !predecessor_offsets_.empty(); }
    // The events that had to finish before this one could start (besides the one before it on its lane).
    [[nodiscard]] std::vector<EventId> waited_for(EventId id) const;
    // The events that waited for this one (a send's receiver, a collective's next step); empty without dependencies.
    [[nodiscard]] std::vector<EventId> waited_on_by(EventId id) const;
    // What a communication event put on each topology dimension (bytes and time there alone); null for computation.
    [[nodiscard]] const TransferShape* transfer_shape(EventId id) const;
    // Allocated bytes over time, when the simulation recorded them (SimulateOptions::record_memory_timeline).
    [[nodiscard]] std::span<const MemorySample> memory(std::size_t device) const;
    [[nodiscard]] double peak_memory_bytes(std::size_t device) const { return run_.memory.at(device).peak_bytes; }

    // Use build().
    Timeline(ExecutionGraph graph, EngineRun run, ParallelLayout layout);

private:
    [[nodiscard]] bool index_lanes(const PhaseProgress& progress);
    // The short run's task an event is, and its repetition (0 for a whole run's).
    [[nodiscard]] RepeatedEvents::Source source(EventId id) const;
    // The dp-group members of every rank that npu's groups along `outer` reach (data parallelism with context and
    // expert parallelism: dp × cp × ep ranks), in order.
    [[nodiscard]] std::vector<std::int64_t> members_across(std::int64_t npu,
                                                           std::initializer_list<ParallelAxis> outer) const;
    [[nodiscard]] bool index_dependencies(const PhaseProgress& progress);
    [[nodiscard]] bool index_repeated_successors(const PhaseProgress& progress);
    void append_waited_for(EventId id, std::vector<EventId>& events) const;

    ExecutionGraph graph_;
    EngineRun run_;
    ParallelLayout layout_;
    std::vector<TimelineDevice> devices_;
    std::vector<std::uint32_t> lane_offsets_;  // by device × stream, + 1
    std::vector<EventId> lane_events_;
    std::vector<std::uint32_t> predecessor_offsets_;  // by event, + 1; empty without dependencies
    std::vector<EventId> predecessors_;  // by task of graph_
    std::optional<RepeatedEvents> repeated_;  // set when graph_ is a short run whose period repeats
    // By event of a repeated run, + 1: the events that waited for it are successors_[offsets[e], offsets[e + 1]).
    std::vector<std::uint32_t> successor_offsets_;
    std::vector<EventId> successors_;
};

}  // namespace parasight
