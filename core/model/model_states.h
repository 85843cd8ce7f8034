#pragma once
// The model states a device holds for its parameters — weights, gradients and optimizer state — and the memory
// traffic of the optimizer step. Rajbhandari et al. 2020 (ZeRO): §3.1 for mixed-precision Adam's 2Ψ + 2Ψ + 12Ψ bytes,
// §5 for the stages that shard them over the N data-parallel ranks.

#include "scenario/scenario.h"

namespace parasight {

struct ModelStateBytes {
    double weights_bytes = 0.0;
    double gradients_bytes = 0.0;
    double optimizer_bytes = 0.0;  // master weights and moments
    [[nodiscard]] double total_bytes() const noexcept { return weights_bytes + gradients_bytes + optimizer_bytes; }
};

// What one device holds for `parameters` parameters trained in `dtype` with `optimizer`, under ZeRO stage
// `zero_stage` over `dp` data-parallel ranks. Per parameter, before sharding: weights at the stored width
// (storage_element_bytes: 2, or 4 in fp32), gradients at gradient_element_bytes (the same, or 4 with
// training.fp32_gradients); optimizer state 4 bytes per moment (Adam two, SGD with momentum one), plus a 4-byte fp32
// master copy of the weights below 32 bits. Mixed-precision Adam: 2 + 2 + 12 = 16 bytes (2 + 4 + 12 = 18 with fp32
// gradients, Megatron-LM's bf16). Stage 1 shards the optimizer state, stage 2 the gradients too, stage 3 the weights
// too: 16Ψ, 4Ψ + 12Ψ/N, 2Ψ + 14Ψ/N, 16Ψ/N.
[[nodiscard]] ModelStateBytes model_state_bytes(double parameters, const TrainingSpec& training, int zero_stage,
                                                int dp);

// The width gradients are kept and reduced at: 4 bytes with training.fp32_gradients, else the weights'.
[[nodiscard]] double gradient_element_bytes(const TrainingSpec& training) noexcept;

// The parameters whose update one device computes: from ZeRO stage 1 on, each rank steps only the shard whose
// optimizer state it holds (ZeRO §5.1).
[[nodiscard]] double optimizer_step_parameters(double parameters, int zero_stage, int dp);

// What the optimizer step costs as bytes a copy would move in its time (the roofline's memory term at the copy's
// bandwidth, memory_bandwidth · memory_efficiency), to update `parameters` parameters with
// training.optimizer_implementation:
// - fused: one multi-tensor kernel reads the fp32 master weights, the moments and the gradient (gradient_element_bytes)
//   and writes the three fp32 tensors and the 16-bit weights: Adam 14 + 14 = 28 bytes a parameter (30 with fp32
//   gradients), SGD with momentum 10 + 10 = 20 (22); fp32 training streams as much as 16-bit with 16-bit gradients
//   (Adam reads weights, moments and gradient, 16, and writes 12; SGD 12 and 8).
// - foreach and for-loop: PyTorch's AdamW update as separate kernels, each reading and writing its tensors
//   (torch/optim/adam.py, _multi_tensor_adam and _single_tensor_adam, decoupled weight decay): 72 + 3 · gradient
//   bytes a parameter (84 with fp32 gradients); SGD with momentum (torch/optim/sgd.py) 28 + gradient bytes; with
//   16-bit weights a cast of the fp32 master weights to them, 6 more.
// Then over the share of the copy's bandwidth each implementation's kernels reached in AdamW steps measured on an
// H100 (optimizer_kernel_bandwidth_share).
[[nodiscard]] double optimizer_step_bytes(double parameters, const TrainingSpec& training);
// What an optimizer step run by the host's CPUs streams through host memory for `parameters` (ZeRO-Offload's
// CPU-Adam): the fused pass over fp32 gradients, Adam 30 B a parameter with 16-bit weights, SGD 22.
[[nodiscard]] double host_optimizer_step_bytes(double parameters, const TrainingSpec& training);

// The share of a copy's bandwidth the kernels of `implementation` reached: AdamW over 268 435 456 fp32 parameters in 64
// tensors on an H100 SXM (parasight-calibrate --survey, 2026-11-27; tests/data/calibration/h100-sxm-2026-11-27), the
// bytes above over the time, over the best copy's 3017 GB/s — fused 28 B in 3.066 ms: 0.813, foreach 84 B in 8.391
// ms: 0.891, for-loop 84 B in 7.389 ms: 1.011 (its plain elementwise kernels run at a copy's speed; the
// multi-tensor kernels of the fused and foreach implementations below it).
[[nodiscard]] double optimizer_kernel_bandwidth_share(OptimizerImplementation implementation) noexcept;

}  // namespace parasight
