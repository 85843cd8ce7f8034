#pragma once
// What one transformer layer costs on one device for one micro-batch — block times forward and backward, what
// recomputation redoes, the activations kept — computed once and reused for every layer and micro-batch alike
// (DistSim: identical operations are costed once).

#include "device/compute_model.h"
#include "model/layer_operations.h"
#include "scenario/scenario.h"

namespace parasight {

struct LayerCosts {
    double attention_forward_s = 0.0;
    double mlp_forward_s = 0.0;
    double attention_backward_s = 0.0;
    double mlp_backward_s = 0.0;
    double attention_forward_flops = 0.0;
    double mlp_forward_flops = 0.0;
    // The forward time and FLOPs of the recomputed operations of each block (all of them when the block is
    // recomputed whole).
    double attention_recompute_s = 0.0;
    double mlp_recompute_s = 0.0;
    double attention_recompute_flops = 0.0;
    double mlp_recompute_flops = 0.0;
    double activation_bytes = 0.0;       // kept from forward to backward
    double recompute_extra_bytes = 0.0;  // rebuilt by recomputation and held until the layer's backward ends
    TransformerLayerWork work;
};

// `compute_element_bytes`: the training dtype's width, for operation traffic; `storage_element_bytes`: the width
// activations are kept in (at least 16-bit).
[[nodiscard]] LayerCosts transformer_layer_costs(const ModelSpec& model, const ParallelismSpec& parallelism,
                                                 double micro_batch, const ComputeModel& compute,
                                                 double compute_element_bytes, double storage_element_bytes,
                                                 const RecomputedOperations& recomputed);

}  // namespace parasight
