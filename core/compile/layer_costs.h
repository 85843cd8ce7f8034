#pragma once
// What one transformer layer costs on one device for one micro-batch — block times forward and backward, what
// recomputation redoes, the activations kept — computed once and reused for every layer and micro-batch alike
// (DistSim: identical operations are costed once).

#include "device/compute_model.h"
#include "model/layer_operations.h"
#include "scenario/scenario.h"

namespace parasight {

// One block's operations summed: each time with the part of it the device's memory bounds.
struct BlockCosts {
    KernelTime forward;
    KernelTime backward;
    double forward_flops = 0.0;
    double backward_flops = 0.0;  // 2× forward for matmuls; 2.5× for a fused attention kernel, which recomputes
    // The forward time and FLOPs of the block's recomputed operations (all of them when it is recomputed whole).
    KernelTime recompute;
    double recompute_flops = 0.0;
    // The backward split where tensor parallelism can overlap (operation 1 is the block's column-parallel linear, QKV
    // or the MLP's up projection; operation 0 its norm): everything up to that linear's input gradient, then its
    // weight gradient with the norm's backward. A matmul's backward FLOPs are half input gradient, half weight
    // gradient; its time splits as the two GEMMs' compute times do (ComputeModel::weight_gradient_share).
    KernelTime before_weight_gradient;
    KernelTime weight_gradient;
    double before_weight_gradient_flops = 0.0;
    double weight_gradient_flops = 0.0;
    // The weight gradients of all the block's linears (QKV and output projection, or up and down projection): their
    // share of each one's backward. A zero-bubble schedule runs them apart from the rest, the input gradient (Qi et al.
    // 2024's W and B); the attention core and the norms have no weights to speak of and stay in B.
    KernelTime weight_gradients;
    double weight_gradients_flops = 0.0;
    [[nodiscard]] KernelTime input_gradient() const noexcept { return backward - weight_gradients; }
    [[nodiscard]] double input_gradient_flops() const noexcept { return backward_flops - weight_gradients_flops; }
};

struct LayerCosts {
    BlockCosts attention;
    BlockCosts mlp;
    double activation_bytes = 0.0;       // kept from forward to backward
    double recompute_extra_bytes = 0.0;  // rebuilt by recomputation and held until the layer's backward ends
    // A forward and a backward of the layer (one micro-batch) as the GPU runs them, and as the host's kernel launches
    // let it (docs/model.md §2, "Kernel launch floor"): launched_pass_s > gpu_pass_s when the host bounds a pass.
    double gpu_pass_s = 0.0;
    double launched_pass_s = 0.0;
    TransformerLayerWork work;
};

// `compute_element_bytes`: the training dtype's width, for operation traffic; `storage_element_bytes`: the width
// activations are kept in (at least 16-bit).
[[nodiscard]] LayerCosts transformer_layer_costs(const ModelSpec& model, const ParallelismSpec& parallelism,
                                                 const TrainingSpec& training, double micro_batch,
                                                 const ComputeModel& compute,
                                                 double compute_element_bytes, double storage_element_bytes,
                                                 const RecomputedOperations& recomputed);

}  // namespace parasight
