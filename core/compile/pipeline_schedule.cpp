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

// Megatron-LM's interleaved schedule as Megatron-Core runs it (pipeline_parallel/schedules.py, its schedule table):
// micro-batches go through the virtual stages in groups of N (the last group takes what is left): each group's
// micro-batches run chunk 0, then chunk 1, and so on; backwards visit the chunks in reverse. Warm-up:
// (p − s − 1)·2 + (v − 1)·N forwards, all of them when that reaches m·v. With N = p and m a multiple of p this is
// Narayanan et al.'s order: forward k uses chunk (k mod p·v) div p.
std::vector<PipelineStep> interleaved(int stage, int stages, int micro_batches, int chunks, int group) {
    const int total = micro_batches * chunks;
    std::vector<PipelineStep> order;  // the forwards in execution order
    order.reserve(static_cast<std::size_t>(total));
    for (int group_start = 0; group_start < micro_batches; group_start += group) {
        const int group_end = std::min(group_start + group, micro_batches);
        for (int chunk = 0; chunk < chunks; ++chunk) {
            for (int mb = group_start; mb < group_end; ++mb) order.push_back({true, chunk, mb});
        }
    }
    auto backward_of = [&](int k) {
        return PipelineStep{false, chunks - 1 - order[static_cast<std::size_t>(k)].chunk,
                            order[static_cast<std::size_t>(k)].micro_batch};
    };
    const int warmup = std::min((stages - stage - 1) * 2 + (chunks - 1) * group, total);
    std::vector<PipelineStep> steps;
    steps.reserve(2 * static_cast<std::size_t>(total));
    int next_forward = 0;
    int next_backward = 0;
    for (; next_forward < warmup; ++next_forward) steps.push_back(order[static_cast<std::size_t>(next_forward)]);
    while (next_forward < total) {
        steps.push_back(order[static_cast<std::size_t>(next_forward++)]);
        steps.push_back(backward_of(next_backward++));
    }
    while (next_backward < total) steps.push_back(backward_of(next_backward++));
    return steps;
}

// ZB-H1 (Qi et al. 2024 §2.1): 1F1B's forwards and backwards, each backward computing the input gradient only, and
// stage s running micro-batch k's weight gradient after micro-batch k + s's backward, the rest after its last
// backward. Every stage then has p micro-batches whose weight gradient is pending, as 1F1B's first stage has
// in flight, and the backward chain up the pipeline no longer waits for weight gradients: the bubble is
// (p − 1)(F + B − W) instead of (p − 1)(F + B + W).
std::vector<PipelineStep> zb_h1(int stage, int stages, int micro_batches) {
    std::vector<PipelineStep> steps;
    int next_weight_gradient = 0;
    for (const PipelineStep& step : one_f_one_b(stage, stages, micro_batches, 0)) {
        steps.push_back(step);
        if (step.forward) continue;
        for (; next_weight_gradient <= step.micro_batch - stage; ++next_weight_gradient) {
            steps.push_back({false, 0, next_weight_gradient, true});
        }
    }
    for (; next_weight_gradient < micro_batches; ++next_weight_gradient) {
        steps.push_back({false, 0, next_weight_gradient, true});
    }
    return steps;
}

}  // namespace

bool splits_backward(Schedule schedule) noexcept { return schedule == Schedule::zb_h1; }

std::vector<PipelineStep> pipeline_steps(Schedule schedule, int stage, int stages, int micro_batches, int chunks,
                                         int max_in_flight, int micro_batch_group) {
    switch (schedule) {
    case Schedule::gpipe: return gpipe(micro_batches);
    case Schedule::one_f_one_b: return one_f_one_b(stage, stages, micro_batches, max_in_flight);
    case Schedule::interleaved:
        return interleaved(stage, stages, micro_batches, chunks, micro_batch_group > 0 ? micro_batch_group : stages);
    case Schedule::zb_h1: return zb_h1(stage, stages, micro_batches);
    }
    return {};
}

}  // namespace parasight
