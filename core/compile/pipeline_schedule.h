#pragma once
// The order in which one pipeline stage runs its forward and backward passes (Huang et al. 2019 GPipe; Narayanan et
// al. 2019 PipeDream-Flush / DAPPLE 1F1B; Narayanan et al. 2021 §2.2 interleaved 1F1B with virtual stages; Qi et al.
// 2024 ZB-H1, whose backward runs as an input-gradient pass and a later weight-gradient pass).

#include "scenario/scenario.h"

#include <vector>

namespace parasight {

struct PipelineStep {
    bool forward = true;
    int chunk = 0;        // virtual stage on this device (0 unless interleaved)
    int micro_batch = 0;
    // A backward split in two (splits_backward): the weight-gradient pass; the backward step is then the input
    // gradient only.
    bool weight_gradient = false;

    friend bool operator==(const PipelineStep&, const PipelineStep&) = default;
};

// Every forward and backward of `micro_batches` micro-batches through `chunks` virtual stages on stage `stage` of
// `stages`, in execution order. `max_in_flight` (≥ 1, or 0 for the schedule's own) caps how many micro-batches a
// 1F1B stage starts before its first backward; `micro_batch_group` (0: `stages`) is how many micro-batches the
// interleaved schedule runs through a chunk before the next (the loader keeps it between stages and micro_batches,
// and the last group at 0 or at least `stages`).
// Whether the schedule runs each backward as an input-gradient step and a separate weight-gradient step.
[[nodiscard]] bool splits_backward(Schedule schedule) noexcept;

[[nodiscard]] std::vector<PipelineStep> pipeline_steps(Schedule schedule, int stage, int stages, int micro_batches,
                                                       int chunks, int max_in_flight = 0, int micro_batch_group = 0);

}  // namespace parasight
