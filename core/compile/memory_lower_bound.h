#pragma once
// The least memory a device of a scenario needs, in closed form and without simulating. Three things a device holds
// at once are counted, each a part of what the simulation allocates:
//   - the runtime's own memory (cluster.device.context_memory), held from the start;
//   - the model states of its stage (weights, gradients, optimizer state — unless offloaded), allocated at the start
//     and kept for the whole iteration (compile/stage_parameters.h);
//   - the activations its pipeline schedule keeps between a micro-batch's forward and its backward, at the step
//     where the most are in flight (compile/pipeline_schedule.h: 1F1B's warm-up holds pp − stage micro-batches,
//     GPipe all of them), each layer's as the compiler keeps them (compile/layer_costs.h).
// Everything else a device allocates (embeddings and logits, recomputed tensors, ZeRO-3 gathers, buffers) is left
// out, so a simulated device's peak is never below the bound: a scenario whose bound passes the device's memory
// cannot fit, and a sweep records it as out of memory without simulating it. A strategy tree that changes
// micro-batches or caps them in flight counts one micro-batch's activations only.

#include "scenario/validated_scenario.h"

namespace parasight {

struct MemoryLowerBound {
    double needed_bytes = 0.0;      // on the stage that needs the most
    int stage = 0;                  // that stage
    double runtime_bytes = 0.0;      // of it: the runtime's (the CUDA context)
    double model_state_bytes = 0.0;  // of it: the model states
    double activation_bytes = 0.0;   // of it: the activations in flight at once
    int micro_batches_in_flight = 0;  // … of that many micro-batches (chunk passes, when interleaved)
    double capacity_bytes = 0.0;    // the device's memory

    [[nodiscard]] bool exceeds_capacity() const noexcept {
        return capacity_bytes > 0.0 && needed_bytes > capacity_bytes;
    }
};

[[nodiscard]] MemoryLowerBound memory_lower_bound(const ValidatedScenario& scenario);

}  // namespace parasight
