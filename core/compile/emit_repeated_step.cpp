// A transformer's forward or backward step emitted again for another micro-batch from the first one emitted on the
// device: its tasks and dependencies copied, shifted, with the micro-batch changed — what emitting it anew adds, in
// the same order, at a fraction of the cost (a pipeline repeats each step for every micro-batch).
#include "compile/graph_builder.h"

#include <algorithm>

namespace parasight {

GraphBuilder::StepTemplate* GraphBuilder::repeatable_step(DeviceProgram& program, const PipelineStep& step,
                                                         bool reduces) {
    if (!options_.repeat_steps || reduces || options_.all_devices ||
        parallelism_.offload_parameters != OffloadTarget::none) {
        return nullptr;
    }
    // What the step emits depends, besides its micro-batch, on its direction, its chunk and whether the device ran
    // something before it (the dependency on it); the micro-batch only numbers the tasks.
    if (program.templates.empty()) program.templates.resize(static_cast<std::size_t>(8 * chunks_));
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
    const std::size_t end_dependency = graph_.dependency_count();
    for (std::size_t d = first_dependency; d < end_dependency; ++d) {
        const auto [before, after] = graph_.dependency(d);
        if (!inside(after) || !(inside(before) || (before == previous && previous >= 0))) return;
    }
    if (!(inside(last) || last == previous) || !(send < 0 || inside(send))) return;
    repeatable = StepTemplate{StepTemplate::State::recorded, first, end, first_dependency, end_dependency, previous,
                              last, send};
}

void GraphBuilder::repeat_step(DeviceProgram& program, Step& record, const StepTemplate& repeatable, bool forward,
                               int micro_batch) {
    const auto first = static_cast<TaskId>(graph_.tasks.size());
    const TaskId shift = first - repeatable.first;
    // Grown first, then copied: the template's tasks are in the same vector.
    graph_.tasks.resize(graph_.tasks.size() + static_cast<std::size_t>(repeatable.end - repeatable.first));
    const auto copied = std::copy(graph_.tasks.begin() + repeatable.first, graph_.tasks.begin() + repeatable.end,
                                  graph_.tasks.begin() + first);
    for (auto task = graph_.tasks.begin() + first; task != copied; ++task) task->micro_batch = micro_batch;
    for (std::size_t d = repeatable.first_dependency; d < repeatable.end_dependency; ++d) {
        const auto [before, after] = graph_.dependency(d);
        graph_.depend(before == repeatable.previous ? program.previous : before + shift, after + shift);
    }
    const bool emitted = repeatable.end > repeatable.first;
    record.first = emitted ? first : -1;
    record.send = repeatable.send >= 0 ? repeatable.send + shift : -1;
    const TaskId last = repeatable.last == repeatable.previous ? program.previous : repeatable.last + shift;
    finish_step(program, record, forward, last);
}

}  // namespace parasight
