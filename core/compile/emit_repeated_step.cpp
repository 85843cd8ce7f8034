// A transformer's forward or backward step emitted again for another micro-batch from the first one emitted on the
// device: its tasks and dependencies copied, shifted, with the micro-batch changed — what emitting it anew adds, in
// the same order, at a fraction of the cost (a pipeline repeats each step for every micro-batch).
#include "compile/graph_builder.h"

namespace parasight {

GraphBuilder::StepTemplate* GraphBuilder::repeatable_step(DeviceProgram& program, const PipelineStep& step,
                                                         bool reduces) {
    if (!options_.repeat_steps || reduces || options_.all_devices ||
        parallelism_.offload_parameters != OffloadTarget::none) {
        return nullptr;
    }
    // What the step emits depends, besides its micro-batch, on its direction, its chunk and whether the device ran
    // something before it (the dependency on it); the micro-batch only numbers the tasks.
    if (program.templates.empty()) program.templates.resize(static_cast<std::size_t>(4 * chunks_));
    const std::size_t index = (static_cast<std::size_t>(step.chunk) * 2 + (step.forward ? 1 : 0)) * 2 +
                              (program.previous >= 0 ? 1 : 0);
    return &program.templates[index];
}

void GraphBuilder::record_step(StepTemplate& repeatable, TaskId first, std::size_t first_dependency, TaskId previous,
                               TaskId last, TaskId send, int micro_batch) const {
    const auto end = static_cast<TaskId>(graph_.tasks.size());
    const auto inside = [&](TaskId task) { return task >= first && task < end; };
    repeatable.state = StepTemplate::State::unusable;
    for (TaskId task = first; task < end; ++task) {
        if (graph_.tasks[static_cast<std::size_t>(task)].micro_batch != micro_batch) return;
    }
    if (!(inside(last) || last == previous) || !(send < 0 || inside(send))) return;
    std::vector<std::pair<TaskId, TaskId>> dependencies;
    for (std::size_t d = first_dependency; d < graph_.dependency_count(); ++d) {
        const auto [before, after] = graph_.dependency(d);
        if (!inside(after)) return;
        if (inside(before)) {
            dependencies.emplace_back(before - first, after - first);
        } else if (before == previous && previous >= 0) {
            dependencies.emplace_back(-1, after - first);
        } else {
            return;
        }
    }
    repeatable.state = StepTemplate::State::recorded;
    repeatable.tasks.assign(graph_.tasks.begin() + first, graph_.tasks.end());
    repeatable.dependencies = std::move(dependencies);
    repeatable.last = inside(last) ? last - first : -1;
    repeatable.send = send >= 0 ? send - first : -1;
}

void GraphBuilder::repeat_step(DeviceProgram& program, Step& record, const StepTemplate& repeatable, bool forward,
                               int micro_batch) {
    const auto first = static_cast<TaskId>(graph_.tasks.size());
    graph_.tasks.insert(graph_.tasks.end(), repeatable.tasks.begin(), repeatable.tasks.end());
    for (auto task = graph_.tasks.begin() + first; task != graph_.tasks.end(); ++task) task->micro_batch = micro_batch;
    for (const auto& [before, after] : repeatable.dependencies) {
        graph_.depend(before < 0 ? program.previous : first + before, first + after);
    }
    record.first = repeatable.tasks.empty() ? -1 : first;
    record.send = repeatable.send >= 0 ? first + repeatable.send : -1;
    finish_step(program, record, forward, repeatable.last >= 0 ? first + repeatable.last : program.previous);
}

}  // namespace parasight
