#include "compile/pipeline_schedule.h"

#include <algorithm>

namespace parasight {
namespace {

std::vector<PipelineStep> gpipe(int micro_batches) {
    std::vector<PipelineStep> steps;
    for (int mb = 0; mb < micro_batches; ++mb) steps.push_back({true, 0, mb});
    for (int mb = 0; mb < micro_batches; ++mb) steps.push_back({false, 0, mb});
    return steps;
}

// PipeDream-Flush / DAPPLE: stage s runs p − s − 1 warm-up forwards, then alternates one forward and one backward,
// then drains the remaining backwards. At most p − s micro-batches are in flight.
std::vector<PipelineStep> one_f_one_b(int stage, int stages, int micro_batches, int max_in_flight) {
    int warmup = std::min(stages - stage - 1, micro_batches);
    if (max_in_flight > 0) warmup = std::min(warmup, max_in_flight - 1);
    std::vector<PipelineStep> steps;
    int next_forward = 0;
    int next_backward = 0;
    for (; next_forward < warmup; ++next_forward) steps.push_back({true, 0, next_forward});
    while (next_forward < micro_batches) {
        steps.push_back({true, 0, next_forward++});
        steps.push_back({false, 0, next_backward++});
    }
    while (next_backward < micro_batches) steps.push_back({false, 0, next_backward++});
    return steps;
}

// Megatron-LM's interleaved schedule: micro-batches go through the virtual stages in groups of p, so forward k uses
// chunk (k mod p·v) div p; backwards visit chunks in reverse. Warm-up: (p − s − 1)·2 + (v − 1)·p forwards.
std::vector<PipelineStep> interleaved(int stage, int stages, int micro_batches, int chunks) {
    const int total = micro_batches * chunks;
    const int group = stages * chunks;
    auto step_of = [&](int k, bool forward) {
        const int in_group = k % group;
        int chunk = in_group / stages;
        if (!forward) chunk = chunks - 1 - chunk;
        const int micro_batch = (k / group) * stages + in_group % stages;
        return PipelineStep{forward, chunk, micro_batch};
    };
    // With as many micro-batches as stages Megatron runs every forward first.
    const int warmup = micro_batches == stages ? total
                                               : std::min((stages - stage - 1) * 2 + (chunks - 1) * stages, total);
    std::vector<PipelineStep> steps;
    int next_forward = 0;
    int next_backward = 0;
    for (; next_forward < warmup; ++next_forward) steps.push_back(step_of(next_forward, true));
    while (next_forward < total) {
        steps.push_back(step_of(next_forward++, true));
        steps.push_back(step_of(next_backward++, false));
    }
    while (next_backward < total) steps.push_back(step_of(next_backward++, false));
    return steps;
}

}  // namespace

std::vector<PipelineStep> pipeline_steps(Schedule schedule, int stage, int stages, int micro_batches, int chunks,
                                         int max_in_flight) {
    switch (schedule) {
    case Schedule::gpipe: return gpipe(micro_batches);
    case Schedule::one_f_one_b: return one_f_one_b(stage, stages, micro_batches, max_in_flight);
    case Schedule::interleaved: return interleaved(stage, stages, micro_batches, chunks);
    }
    return {};
}

}  // namespace parasight
