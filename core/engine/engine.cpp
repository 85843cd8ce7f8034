#include "engine/engine.h"

#include "engine/event_queue.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <span>

namespace parasight {
namespace {

constexpr std::int32_t none = -1;

// A running unit of work: one task, or the tasks of one collective on every simulated member (each on its own
// device). Slots are reused once an activity finishes.
struct Activity {
    TaskId task = none;               // the task, or the collective's first member
    std::int32_t collective = none;   // members are collective_members(collective) when set
    std::int32_t device = 0;          // the task's device (a collective's first member's)
    double remaining_s = 0.0;         // work left, in seconds at full rate
    double rate = 1.0;
    double updated_s = 0.0;
    std::uint64_t rated_in = 0;       // the last re-rating pass that visited this activity
    std::uint32_t dimension_mask = 0;
    Occupies occupies = Occupies::compute;
};

// What the engine reads of a task on every start and finish, packed so that the working set stays in cache; the rest
// of a Task is read only when the task allocates or releases memory.
struct HotTask {
    double work_s = 0.0;
    std::int32_t device = 0;
    std::int32_t collective = -1;
    std::uint32_t dimension_mask = 0;
    Stream stream = Stream::compute;
    Occupies occupies = Occupies::compute;
    bool touches_memory = false;
};


class Engine {
public:
    Engine(const ExecutionGraph& graph, const EngineOptions& options) : graph_(graph), options_(options) {
        const std::size_t devices = graph.devices.size();
        heads_.assign(devices * stream_count, 0);
        busy_.assign(devices * stream_count, none);
        active_.assign(devices, {});
        running_.assign(devices, {0, 0});
        shares_.assign(devices, {});
        shares_valid_.assign(devices, 0);
        rate_stale_.assign(devices, 0);
        run_.memory.assign(devices, DeviceMemory{});
        memory_.assign(devices, {});
    }

    EngineRun run() {
        if (!prepare()) {
            run_.end = EngineEnd::cancelled;
            return std::move(run_);
        }
        for (std::size_t d = 0; d < graph_.devices.size(); ++d) {
            for (std::size_t s = 0; s < stream_count; ++s) try_start(static_cast<std::int32_t>(d), static_cast<Stream>(s));
        }
        rerate_stale_devices();
        if (options_.stop_at_over_capacity && over_capacity_) {
            run_.end = EngineEnd::out_of_memory;
            return std::move(run_);
        }
        std::size_t finished_tasks = 0;
        const std::size_t total_tasks = graph_.tasks.size();
        while (!events_.empty()) {
            const EventQueue::Event event = events_.pop();
            const Activity& activity = activities_[static_cast<std::size_t>(event.activity)];
            now_s_ = event.time_s();
            finished_tasks += member_count(activity);
            finish(event.activity);
            rerate_stale_devices();
            if (options_.stop_at_over_capacity && over_capacity_) {
                run_.makespan_s = now_s_;
                run_.end = EngineEnd::out_of_memory;
                return std::move(run_);
            }
            if ((++progress_tick_ & 1023U) == 0 &&
                progress_.report(prepare_share + (1.0 - prepare_share) * static_cast<double>(finished_tasks) /
                                                      static_cast<double>(total_tasks))) {
                run_.end = EngineEnd::cancelled;
                return std::move(run_);
            }
        }
        run_.makespan_s = now_s_;
        if (finished_tasks != total_tasks) {
            // A bug in the compiler: a task waits for one that never runs.
            run_.end = EngineEnd::deadlocked;
            run_.unfinished_tasks = total_tasks - finished_tasks;
            return std::move(run_);
        }
        if (progress_.report(1.0)) run_.end = EngineEnd::cancelled;
        return std::move(run_);
    }

private:
    // The share of the engine phase reported for prepare(): indexing the tasks takes about a tenth of a run.
    static constexpr double prepare_share = 0.1;

    // Reads what a run needs of every task, counts its dependencies, groups collective members and allocates the
    // static memory (the graph queues each stream's tasks). False when cancelled on the way (it polls every 2^16
    // tasks: a few milliseconds).
    bool prepare() {
        const ExecutionGraph& graph = graph_;
        const std::size_t devices = graph.devices.size();
        const double total = static_cast<double>(graph.tasks.size()) * 2.0 + 1.0;
        // Reserved, then filled as the loop goes: a full-size resize would touch gigabytes in one call that no poll
        // can interrupt.
        remaining_deps_.reserve(graph.tasks.size());
        hot_.reserve(graph.tasks.size());
        run_.timings.reserve(graph.tasks.size());
        if (options_.record_start_order) run_.start_order.reserve(graph.tasks.size());
        member_offsets_.assign(static_cast<std::size_t>(graph.collective_count) + 1, 0);
        for (std::size_t t = 0; t < graph.tasks.size(); ++t) {
            if ((t & 0xFFFFU) == 0 && progress_.report(prepare_share * static_cast<double>(t) / total)) return false;
            const Task& task = graph.tasks[t];
            hot_.push_back(HotTask{task.work_s, task.device, task.collective, task.dimension_mask, task.stream,
                                   occupies(task.kind),
                                   task.allocate_bytes != 0.0 || task.release_bytes != 0.0 ||
                                       task.release_buffer_bytes != 0.0});
            remaining_deps_.push_back(graph.predecessor_count(static_cast<TaskId>(t)));
            run_.timings.push_back(TaskTiming{});
            if (task.collective >= 0) {
                ++member_offsets_[static_cast<std::size_t>(task.collective) + 1];
                members_.push_back(static_cast<TaskId>(t));  // for now in TaskId order; placed by collective below
            }
        }
        // Each stream starts at its first task (the graph queues them); each collective's members, flat (one
        // allocation, so that a cancelled run frees them at once): counted while the tasks were indexed, then placed
        // in TaskId order.
        for (std::size_t s = 0; s < heads_.size(); ++s) heads_[s] = graph.stream_offset(s);
        for (std::size_t c = 1; c < member_offsets_.size(); ++c) member_offsets_[c] += member_offsets_[c - 1];
        const std::vector<TaskId> in_task_order = std::move(members_);
        members_.assign(in_task_order.size(), 0);
        std::vector<std::uint32_t> fill(member_offsets_.begin(), member_offsets_.end() - 1);
        for (std::size_t m = 0; m < in_task_order.size(); ++m) {
            if ((m & 0xFFFFU) == 0 &&
                progress_.report(prepare_share * (static_cast<double>(graph.tasks.size() + m)) / total)) {
                return false;
            }
            const TaskId task = in_task_order[m];
            members_[fill[static_cast<std::size_t>(hot_[static_cast<std::size_t>(task)].collective)]++] = task;
        }
        arrived_.assign(static_cast<std::size_t>(graph.collective_count), 0);
        for (std::size_t d = 0; d < devices; ++d) {
            for (std::size_t c = 0; c < memory_category_count; ++c) {
                change_memory(static_cast<std::int32_t>(d), static_cast<MemoryCategory>(c),
                              graph.devices[d].static_bytes[c], none);
            }
        }
        return true;
    }

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
            over_capacity_ = true;
        }
        if (options_.record_memory_timeline) record.timeline.push_back(MemorySample{now_s_, total});
    }

    void try_start(std::int32_t device, Stream stream) {
        const std::size_t s = slot(device, stream);
        if (busy_[s] != none || heads_[s] >= graph_.stream_offset(s + 1)) return;
        const TaskId task_id = queued_[heads_[s]];
        if (remaining_deps_[static_cast<std::size_t>(task_id)] > 0) return;
        const HotTask& task = hot_[static_cast<std::size_t>(task_id)];
        if (task.collective >= 0) {
            // The stream is held by the collective from now on, waiting for the other members.
            busy_[s] = waiting;
            const auto members = collective_members(task.collective);
            if (++arrived_[static_cast<std::size_t>(task.collective)] < members.size()) return;
            start(members.front(), task.collective);
            return;
        }
        start(task_id, none);
    }

    [[nodiscard]] std::size_t member_count(const Activity& activity) const {
        return activity.collective >= 0 ? collective_members(activity.collective).size() : 1;
    }

    [[nodiscard]] std::span<const TaskId> collective_members(std::int32_t collective) const {
        const auto c = static_cast<std::size_t>(collective);
        return {members_.data() + member_offsets_[c], member_offsets_[c + 1] - member_offsets_[c]};
    }

    // The members of an activity; `single` holds a lone task so that the span outlives changes to activities_.
    [[nodiscard]] std::span<const TaskId> members_of(const Activity& activity, TaskId& single) const {
        if (activity.collective >= 0) return collective_members(activity.collective);
        single = activity.task;
        return {&single, 1};
    }

    void start(TaskId task_id, std::int32_t collective) {
        std::int32_t id = 0;
        if (free_slots_.empty()) {
            id = static_cast<std::int32_t>(activities_.size());
            activities_.emplace_back();
            events_.add_activity();
        } else {
            id = free_slots_.back();
            free_slots_.pop_back();
        }
        Activity& activity = activities_[static_cast<std::size_t>(id)];
        const HotTask& first = hot_[static_cast<std::size_t>(task_id)];
        activity = Activity{};
        activity.task = task_id;
        activity.collective = collective;
        activity.device = first.device;
        activity.remaining_s = first.work_s;
        activity.updated_s = now_s_;
        activity.dimension_mask = first.dimension_mask;
        activity.occupies = first.occupies;
        TaskId single = none;
        const auto members = members_of(activity, single);
        for (const TaskId member : members) {
            const HotTask& task = hot_[static_cast<std::size_t>(member)];
            busy_[slot(task.device, task.stream)] = id;
            run_.timings[static_cast<std::size_t>(member)].start_s = now_s_;
            if (options_.record_start_order) run_.start_order.push_back(member);
            active_[static_cast<std::size_t>(task.device)].push_back(id);
            mark_rate_stale(task.device);
            count_running(task.device, activity.occupies, +1);
            if (task.touches_memory) {
                const Task& full = graph_.tasks[static_cast<std::size_t>(member)];
                change_memory(task.device, full.allocate_category, full.allocate_bytes, member);
            }
            ++run_.events;
        }
    }

    void finish(std::int32_t id) {
        Activity& activity = activities_[static_cast<std::size_t>(id)];
        TaskId single = none;
        const auto members = members_of(activity, single);
        for (const TaskId member : members) {
            const HotTask& task = hot_[static_cast<std::size_t>(member)];
            auto& list = active_[static_cast<std::size_t>(task.device)];
            list.erase(std::find(list.begin(), list.end(), id));
            mark_rate_stale(task.device);
            count_running(task.device, activity.occupies, -1);
            run_.timings[static_cast<std::size_t>(member)].end_s = now_s_;
            if (task.touches_memory) {
                const Task& full = graph_.tasks[static_cast<std::size_t>(member)];
                change_memory(task.device, full.release_category, -full.release_bytes, member);
                change_memory(task.device, MemoryCategory::buffers, -full.release_buffer_bytes, member);
            }
            const std::size_t s = slot(task.device, task.stream);
            busy_[s] = none;
            ++heads_[s];
            ++run_.events;
        }
        free_slots_.push_back(id);
        for (const TaskId member : members) {
            for (const std::int32_t* next = graph_.successors_begin(member); next != graph_.successors_end(member); ++next) {
                if (--remaining_deps_[static_cast<std::size_t>(*next)] == 0) {
                    const HotTask& successor = hot_[static_cast<std::size_t>(*next)];
                    try_start(successor.device, successor.stream);
                }
            }
            const HotTask& task = hot_[static_cast<std::size_t>(member)];
            try_start(task.device, task.stream);
        }
    }

    // What runs on a device, for the overlap slowdown; a communication starting or ending there changes the link
    // shares. An injected delay holds neither compute units nor links.
    void count_running(std::int32_t device, Occupies occupies, int change) {
        if (occupies == Occupies::nothing) return;
        const auto d = static_cast<std::size_t>(device);
        running_[d][occupies == Occupies::links ? 1 : 0] += change;
        if (occupies == Occupies::links) shares_valid_[d] = 0;
    }

    void schedule(std::int32_t id) {
        Activity& activity = activities_[static_cast<std::size_t>(id)];
        // Most activities run at the full rate, where the division (the slowest arithmetic here, which the heap's
        // comparisons wait for) would give the same end.
        const double left_s = activity.rate == 1.0 ? activity.remaining_s : activity.remaining_s / activity.rate;
        const double end_s = activity.remaining_s <= 0.0 ? now_s_ : now_s_ + left_s;
        events_.schedule(id, end_s);
    }

    void mark_rate_stale(std::int32_t device) {
        if (rate_stale_[static_cast<std::size_t>(device)]) return;
        rate_stale_[static_cast<std::size_t>(device)] = 1;
        stale_devices_.push_back(device);
    }

    // Re-computes the rate of every activity running on a device where something started or finished since the last
    // pass, each activity once, and schedules the end of those that started or changed rate. Called once per
    // finished activity, after its successors have started: rates change only at that instant, so the states in
    // between last no time and need no rating (a compute task ending and the next starting leave an overlapped
    // collective's rate as it was).
    void rerate_stale_devices() {
        ++rating_pass_;
        for (const std::int32_t device : stale_devices_) {
            rate_stale_[static_cast<std::size_t>(device)] = 0;
            for (const std::int32_t id : active_[static_cast<std::size_t>(device)]) {
                Activity& activity = activities_[static_cast<std::size_t>(id)];
                if (activity.rated_in == rating_pass_) continue;
                activity.rated_in = rating_pass_;
                rerate(id);
            }
        }
        stale_devices_.clear();
    }

    // A collective's rate is the slowest of its members'.
    void rerate(std::int32_t id) {
        Activity& activity = activities_[static_cast<std::size_t>(id)];
        double rate = local_rate(activity, id, activity.device);
        if (activity.collective >= 0) {
            for (const TaskId member : collective_members(activity.collective)) {
                rate = std::min(rate, local_rate(activity, id, hot_[static_cast<std::size_t>(member)].device));
            }
        }
        if (events_.scheduled(id) && rate == activity.rate) return;
        activity.remaining_s -= activity.rate * (now_s_ - activity.updated_s);
        activity.remaining_s = std::max(activity.remaining_s, 0.0);
        activity.updated_s = now_s_;
        activity.rate = rate;
        schedule(id);
    }

    double local_rate(const Activity& activity, std::int32_t id, std::int32_t device) {
        const auto& counts = running_[static_cast<std::size_t>(device)];
        const bool compute_running = counts[0] > 0;
        const bool communication_running = counts[1] > 0;
        const double overlap = overlap_rate_;
        if (activity.occupies == Occupies::nothing) return 1.0;
        if (activity.occupies == Occupies::compute) return communication_running ? overlap : 1.0;
        const double share = options_.bandwidth_sharing ? fair_share(id, device) : 1.0;
        return share * (compute_running ? overlap : 1.0);
    }

    // The share of its links that communication `id` gets on `device`, from the device's shares, which are
    // re-computed only when a communication starts or finishes there.
    double fair_share(std::int32_t id, std::int32_t device) {
        // A communication alone on its device has its links to itself (most of a pipeline's time).
        if (running_[static_cast<std::size_t>(device)][1] <= 1) return 1.0;
        auto& shares = shares_[static_cast<std::size_t>(device)];
        if (!shares_valid_[static_cast<std::size_t>(device)]) {
            compute_shares(active_[static_cast<std::size_t>(device)], shares);
            shares_valid_[static_cast<std::size_t>(device)] = 1;
        }
        for (const auto& [flow, share] : shares) {
            if (flow == id) return share;
        }
        return 1.0;
    }

    // Max-min fair shares (progressive filling) of the communications in `list` over their topology dimensions,
    // each dimension's injection bandwidth being one unit.
    void compute_shares(const std::vector<std::int32_t>& list, std::vector<std::pair<std::int32_t, double>>& shares) const {
        shares.clear();
        std::uint32_t used = 0;
        std::uint32_t shared = 0;  // dimensions two flows or more use
        for (const std::int32_t other : list) {
            const Activity& activity = activities_[static_cast<std::size_t>(other)];
            if (activity.occupies != Occupies::links || activity.dimension_mask == 0) continue;
            shares.emplace_back(other, -1.0);
            shared |= used & activity.dimension_mask;
            used |= activity.dimension_mask;
        }
        if (shared == 0) {  // no two flows share a dimension
            for (auto& entry : shares) entry.second = 1.0;
            return;
        }
        auto mask_of = [&](std::size_t f) { return activities_[static_cast<std::size_t>(shares[f].first)].dimension_mask; };
        std::array<double, 32> capacity{};
        capacity.fill(1.0);
        std::size_t fixed = 0;
        while (fixed < shares.size()) {
            double best = std::numeric_limits<double>::infinity();
            int bottleneck = -1;
            for (std::uint32_t rest = used; rest != 0; rest &= rest - 1) {
                const int d = std::countr_zero(rest);
                int users = 0;
                for (std::size_t f = 0; f < shares.size(); ++f) users += (shares[f].second < 0.0 && (mask_of(f) >> d & 1U)) ? 1 : 0;
                if (users > 0 && capacity[static_cast<std::size_t>(d)] / users < best) {
                    best = capacity[static_cast<std::size_t>(d)] / users;
                    bottleneck = d;
                }
            }
            if (bottleneck < 0) break;
            for (std::size_t f = 0; f < shares.size(); ++f) {
                if (shares[f].second >= 0.0 || !(mask_of(f) >> bottleneck & 1U)) continue;
                shares[f].second = std::min(1.0, best);
                ++fixed;
                for (std::uint32_t rest = mask_of(f); rest != 0; rest &= rest - 1) {
                    capacity[static_cast<std::size_t>(std::countr_zero(rest))] -= best;
                }
            }
        }
    }

    static constexpr std::int32_t waiting = -2;

    const ExecutionGraph& graph_;
    EngineOptions options_;
    double overlap_rate_ = 1.0 / (1.0 + options_.overlap_slowdown);  // an overlapped operation's rate
    // Each stream's tasks in TaskId order, all streams one after another (the graph's stream_tasks); heads_[s] is
    // the index there of slot s's next to start.
    const TaskId* queued_ = graph_.all_stream_tasks().data();
    std::vector<std::size_t> heads_;
    std::vector<std::int32_t> busy_;
    std::vector<std::vector<std::int32_t>> active_;
    std::vector<std::array<std::int32_t, 2>> running_;  // per device: computations, communications
    std::vector<std::vector<std::pair<std::int32_t, double>>> shares_;  // per device: link share of each communication
    std::vector<std::uint8_t> shares_valid_;  // not vector<bool>: this is read on every re-rating
    std::vector<std::uint8_t> rate_stale_;    // per device: something started or finished there since the last pass
    std::vector<std::int32_t> stale_devices_;
    std::uint64_t rating_pass_ = 0;
    std::vector<std::int32_t> remaining_deps_;
    std::vector<HotTask> hot_;
    std::vector<std::uint32_t> member_offsets_;  // by collective, + 1: its members are members_[offsets[c], offsets[c+1])
    std::vector<TaskId> members_;
    std::vector<std::size_t> arrived_;
    std::vector<Activity> activities_;
    std::vector<std::int32_t> free_slots_;
    std::vector<std::array<double, memory_category_count>> memory_;
    EventQueue events_;
    std::uint64_t progress_tick_ = 0;
    bool over_capacity_ = false;  // some device has passed its capacity
    PhaseProgress progress_{options_.progress, SimulationPhase::engine};
    double now_s_ = 0.0;
    EngineRun run_;
};

}  // namespace

EngineRun run_engine(const ExecutionGraph& graph, const EngineOptions& options) {
    Engine engine(graph, options);
    return engine.run();
}

}  // namespace parasight
