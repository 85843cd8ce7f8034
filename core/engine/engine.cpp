#include "engine/engine.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <stdexcept>

namespace parasight {
namespace {

constexpr std::int32_t none = -1;

// A running unit of work: one task, or the tasks of one collective on every simulated member.
struct Activity {
    std::vector<TaskId> members;
    std::vector<std::int32_t> devices;  // distinct devices of the members
    double remaining_s = 0.0;           // work left, in seconds at full rate
    double rate = 1.0;
    double updated_s = 0.0;
    std::uint32_t version = 0;
    std::uint32_t dimension_mask = 0;
    bool communication = false;
    bool finished = false;
};

struct Event {
    double time_s;
    std::uint64_t sequence;
    std::int32_t activity;
    std::uint32_t version;
    bool operator>(const Event& other) const {
        return time_s != other.time_s ? time_s > other.time_s : sequence > other.sequence;
    }
};

class Engine {
public:
    Engine(const ExecutionGraph& graph, const EngineOptions& options) : graph_(graph), options_(options) {
        const std::size_t devices = graph.devices.size();
        queues_.assign(devices * stream_count, {});
        heads_.assign(devices * stream_count, 0);
        busy_.assign(devices * stream_count, none);
        active_.assign(devices, {});
        remaining_deps_.resize(graph.tasks.size());
        for (std::size_t t = 0; t < graph.tasks.size(); ++t) {
            const Task& task = graph.tasks[t];
            queues_[slot(task.device, task.stream)].push_back(static_cast<TaskId>(t));
            remaining_deps_[t] = graph.predecessor_count(static_cast<TaskId>(t));
        }
        collective_members_.assign(static_cast<std::size_t>(graph.collective_count), {});
        for (std::size_t t = 0; t < graph.tasks.size(); ++t) {
            const std::int32_t c = graph.tasks[t].collective;
            if (c >= 0) collective_members_[static_cast<std::size_t>(c)].push_back(static_cast<TaskId>(t));
        }
        arrived_.assign(collective_members_.size(), 0);
        run_.timings.assign(graph.tasks.size(), TaskTiming{});
        run_.memory.assign(devices, DeviceMemory{});
        memory_.assign(devices, {});
        for (std::size_t d = 0; d < devices; ++d) {
            for (std::size_t c = 0; c < memory_category_count; ++c) {
                change_memory(static_cast<std::int32_t>(d), static_cast<MemoryCategory>(c),
                              graph.devices[d].static_bytes[c], none);
            }
        }
    }

    EngineRun run() {
        for (std::size_t d = 0; d < graph_.devices.size(); ++d) {
            for (std::size_t s = 0; s < stream_count; ++s) try_start(static_cast<std::int32_t>(d), static_cast<Stream>(s));
        }
        std::size_t finished_tasks = 0;
        const std::size_t total_tasks = graph_.tasks.size();
        while (!events_.empty()) {
            const Event event = events_.top();
            events_.pop();
            Activity& activity = activities_[static_cast<std::size_t>(event.activity)];
            if (activity.finished || event.version != activity.version) continue;
            now_s_ = event.time_s;
            finish(event.activity);
            finished_tasks += activities_[static_cast<std::size_t>(event.activity)].members.size();
            if (options_.progress != nullptr && (++progress_tick_ & 1023U) == 0) {
                options_.progress->progress(static_cast<double>(finished_tasks) / static_cast<double>(total_tasks));
                if (options_.progress->cancelled()) {
                    run_.cancelled = true;
                    break;
                }
            }
        }
        if (!run_.cancelled && finished_tasks != total_tasks) {
            throw std::logic_error("the execution graph deadlocked: " + std::to_string(total_tasks - finished_tasks) +
                                   " tasks never became ready");
        }
        if (options_.progress != nullptr && !run_.cancelled) options_.progress->progress(1.0);
        run_.makespan_s = now_s_;
        return std::move(run_);
    }

private:
    [[nodiscard]] std::size_t slot(std::int32_t device, Stream stream) const {
        return static_cast<std::size_t>(device) * stream_count + static_cast<std::size_t>(stream);
    }

    void change_memory(std::int32_t device, MemoryCategory category, double bytes, TaskId task) {
        if (bytes == 0.0) return;
        auto& current = memory_[static_cast<std::size_t>(device)];
        current[static_cast<std::size_t>(category)] += bytes;
        double total = 0.0;
        for (const double value : current) total += value;
        DeviceMemory& record = run_.memory[static_cast<std::size_t>(device)];
        if (total > record.peak_bytes) {
            record.peak_bytes = total;
            record.peak_time_s = now_s_;
            record.peak_task = task;
            record.at_peak_bytes = current;
        }
        if (options_.memory_capacity_bytes > 0.0 && total > options_.memory_capacity_bytes &&
            record.over_capacity_task == -2) {
            record.over_capacity_task = task;
            record.over_capacity_time_s = now_s_;
        }
        if (options_.record_memory_timeline) record.timeline.push_back(MemorySample{now_s_, total});
    }

    void try_start(std::int32_t device, Stream stream) {
        const std::size_t s = slot(device, stream);
        if (busy_[s] != none || heads_[s] >= queues_[s].size()) return;
        const TaskId task_id = queues_[s][heads_[s]];
        if (remaining_deps_[static_cast<std::size_t>(task_id)] > 0) return;
        const Task& task = graph_.tasks[static_cast<std::size_t>(task_id)];
        if (task.collective >= 0) {
            // The stream is held by the collective from now on, waiting for the other members.
            busy_[s] = waiting;
            auto& members = collective_members_[static_cast<std::size_t>(task.collective)];
            if (++arrived_[static_cast<std::size_t>(task.collective)] < members.size()) return;
            start(members);
            return;
        }
        start({task_id});
    }

    void start(const std::vector<TaskId>& members) {
        const auto id = static_cast<std::int32_t>(activities_.size());
        Activity activity;
        activity.members = members;
        const Task& first = graph_.tasks[static_cast<std::size_t>(members.front())];
        activity.remaining_s = first.work_s;
        activity.updated_s = now_s_;
        activity.dimension_mask = first.dimension_mask;
        activity.communication = is_communication(first.kind);
        for (const TaskId member : members) {
            const Task& task = graph_.tasks[static_cast<std::size_t>(member)];
            busy_[slot(task.device, task.stream)] = id;
            run_.timings[static_cast<std::size_t>(member)].start_s = now_s_;
            if (std::find(activity.devices.begin(), activity.devices.end(), task.device) == activity.devices.end()) {
                activity.devices.push_back(task.device);
            }
            change_memory(task.device, task.allocate_category, task.allocate_bytes, member);
            ++run_.events;
        }
        activities_.push_back(std::move(activity));
        for (const std::int32_t device : activities_.back().devices) active_[static_cast<std::size_t>(device)].push_back(id);
        rerate(activities_.back().devices);
        schedule(id);
    }

    void finish(std::int32_t id) {
        Activity& activity = activities_[static_cast<std::size_t>(id)];
        activity.finished = true;
        const std::vector<TaskId> members = activity.members;
        const std::vector<std::int32_t> devices = activity.devices;
        for (const std::int32_t device : devices) {
            auto& list = active_[static_cast<std::size_t>(device)];
            list.erase(std::find(list.begin(), list.end(), id));
        }
        for (const TaskId member : members) {
            const Task& task = graph_.tasks[static_cast<std::size_t>(member)];
            run_.timings[static_cast<std::size_t>(member)].end_s = now_s_;
            change_memory(task.device, task.release_category, -task.release_bytes, member);
            const std::size_t s = slot(task.device, task.stream);
            busy_[s] = none;
            ++heads_[s];
            ++run_.events;
        }
        rerate(devices);
        for (const TaskId member : members) {
            for (const std::int32_t* next = graph_.successors_begin(member); next != graph_.successors_end(member); ++next) {
                if (--remaining_deps_[static_cast<std::size_t>(*next)] == 0) {
                    const Task& successor = graph_.tasks[static_cast<std::size_t>(*next)];
                    try_start(successor.device, successor.stream);
                }
            }
            const Task& task = graph_.tasks[static_cast<std::size_t>(member)];
            try_start(task.device, task.stream);
        }
    }

    void schedule(std::int32_t id) {
        Activity& activity = activities_[static_cast<std::size_t>(id)];
        const double end_s = activity.remaining_s <= 0.0 ? now_s_ : now_s_ + activity.remaining_s / activity.rate;
        events_.push(Event{end_s, sequence_++, id, activity.version});
    }

    // The rate of each activity on `devices` (and so of activities sharing devices with them) given what else runs.
    void rerate(const std::vector<std::int32_t>& devices) {
        for (const std::int32_t device : devices) {
            const auto& list = active_[static_cast<std::size_t>(device)];
            for (const std::int32_t id : list) {
                Activity& activity = activities_[static_cast<std::size_t>(id)];
                double rate = std::numeric_limits<double>::infinity();
                for (const std::int32_t member_device : activity.devices) rate = std::min(rate, local_rate(activity, id, member_device));
                if (rate == activity.rate) continue;
                activity.remaining_s -= activity.rate * (now_s_ - activity.updated_s);
                activity.remaining_s = std::max(activity.remaining_s, 0.0);
                activity.updated_s = now_s_;
                activity.rate = rate;
                ++activity.version;
                schedule(id);
            }
        }
    }

    double local_rate(const Activity& activity, std::int32_t id, std::int32_t device) const {
        const auto& list = active_[static_cast<std::size_t>(device)];
        bool compute_running = false;
        bool communication_running = false;
        for (const std::int32_t other : list) {
            const bool communication = activities_[static_cast<std::size_t>(other)].communication;
            compute_running |= !communication;
            communication_running |= communication;
        }
        const double overlap = 1.0 / (1.0 + options_.overlap_slowdown);
        if (!activity.communication) return communication_running ? overlap : 1.0;
        const double share = options_.bandwidth_sharing ? fair_share(id, list) : 1.0;
        return share * (compute_running ? overlap : 1.0);
    }

    // Max-min fair share (progressive filling) of the communications on one device over its topology dimensions, each
    // dimension's injection bandwidth being one unit.
    double fair_share(std::int32_t id, const std::vector<std::int32_t>& list) const {
        std::vector<std::int32_t> flows;
        for (const std::int32_t other : list) {
            const Activity& activity = activities_[static_cast<std::size_t>(other)];
            if (activity.communication && activity.dimension_mask != 0) flows.push_back(other);
        }
        if (activities_[static_cast<std::size_t>(id)].dimension_mask == 0 || flows.size() <= 1) return 1.0;
        std::array<double, 32> capacity{};
        capacity.fill(1.0);
        std::vector<double> rate(flows.size(), -1.0);
        std::size_t fixed = 0;
        while (fixed < flows.size()) {
            double best = std::numeric_limits<double>::infinity();
            int bottleneck = -1;
            for (int d = 0; d < 32; ++d) {
                int users = 0;
                for (std::size_t f = 0; f < flows.size(); ++f) {
                    if (rate[f] < 0.0 && (activities_[static_cast<std::size_t>(flows[f])].dimension_mask >> d & 1U)) ++users;
                }
                if (users > 0 && capacity[static_cast<std::size_t>(d)] / users < best) {
                    best = capacity[static_cast<std::size_t>(d)] / users;
                    bottleneck = d;
                }
            }
            if (bottleneck < 0) break;
            for (std::size_t f = 0; f < flows.size(); ++f) {
                const std::uint32_t mask = activities_[static_cast<std::size_t>(flows[f])].dimension_mask;
                if (rate[f] >= 0.0 || !(mask >> bottleneck & 1U)) continue;
                rate[f] = best;
                ++fixed;
                for (int d = 0; d < 32; ++d) {
                    if (mask >> d & 1U) capacity[static_cast<std::size_t>(d)] -= best;
                }
            }
        }
        for (std::size_t f = 0; f < flows.size(); ++f) {
            if (flows[f] == id) return std::min(1.0, rate[f]);
        }
        return 1.0;
    }

    static constexpr std::int32_t waiting = -2;

    const ExecutionGraph& graph_;
    EngineOptions options_;
    std::vector<std::vector<TaskId>> queues_;
    std::vector<std::size_t> heads_;
    std::vector<std::int32_t> busy_;
    std::vector<std::vector<std::int32_t>> active_;
    std::vector<std::int32_t> remaining_deps_;
    std::vector<std::vector<TaskId>> collective_members_;
    std::vector<std::size_t> arrived_;
    std::vector<Activity> activities_;
    std::vector<std::array<double, memory_category_count>> memory_;
    std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
    std::uint64_t sequence_ = 0;
    std::uint64_t progress_tick_ = 0;
    double now_s_ = 0.0;
    EngineRun run_;
};

}  // namespace

EngineRun run_engine(const ExecutionGraph& graph, const EngineOptions& options) {
    Engine engine(graph, options);
    return engine.run();
}

}  // namespace parasight
