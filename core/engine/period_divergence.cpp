#include "engine/period_divergence.h"

#include "engine/micro_batch_index.h"

namespace parasight {

bool part_falls_behind(const ExecutionGraph& graph, const EngineRun& run, int micro_batches, int step, int in_flight) {
    if (run.end != EngineEnd::finished || graph.devices.empty() || step < 1) return false;
    const auto index = MicroBatchIndex::make(graph, micro_batches, true);
    if (!index) return false;
    // The micro-batches past the warm-up and before the drain, a step at a time.
    const int first = in_flight;
    const int steps = (micro_batches - in_flight - first) / step - 1;
    if (steps < 2) return false;
    auto start_of = [&](TaskId task) { return run.timings[static_cast<std::size_t>(task)].start_s; };
    const TaskId first_head = index->find(0, first, 0);
    const TaskId last_head = index->find(0, first + steps * step, 0);
    if (first_head < 0 || last_head < 0) return false;
    const double step_s = (start_of(last_head) - start_of(first_head)) / steps;
    if (!(step_s > 0.0)) return false;
    // Every task of every device in micro-batch `first`, followed through the same place of the later micro-batches:
    // how much longer than a step it takes to come round each step.
    for (std::size_t device = 0; device < graph.devices.size(); ++device) {
        for (std::int32_t position = 0;; ++position) {
            TaskId previous = index->find(static_cast<std::int32_t>(device), first, position);
            if (previous < 0) break;
            double early_excess_s = 0.0;
            double late_excess_s = 0.0;
            bool behind = true;
            for (int i = 1; i <= steps && behind; ++i) {
                const TaskId task = index->find(static_cast<std::int32_t>(device), first + i * step, position);
                if (task < 0) {
                    behind = false;
                    break;
                }
                const double excess_s = start_of(task) - start_of(previous) - step_s;
                previous = task;
                behind = excess_s > 1e-3 * step_s;
                (2 * i <= steps ? early_excess_s : late_excess_s) += excess_s;
            }
            // Later every step, as much late as early (a transient dies away), by a tenth of a step in all.
            if (behind && late_excess_s >= 0.5 * early_excess_s && early_excess_s + late_excess_s > 0.1 * step_s) {
                return true;
            }
        }
    }
    return false;
}

}  // namespace parasight
