#include "compile/layer_costs.h"

namespace parasight {

LayerCosts transformer_layer_costs(const ModelSpec& model, const ParallelismSpec& parallelism, double micro_batch,
                                   const ComputeModel& compute, double compute_element_bytes,
                                   double storage_element_bytes, const LayerRecompute& recompute) {
    const LayerSplit split{parallelism.tp, parallelism.cp, parallelism.sequence_parallel, recompute.attention};
    LayerCosts costs;
    costs.work = transformer_layer_work(model, micro_batch, split, compute_element_bytes);
    for (const LayerOperation& op : costs.work.attention) {
        costs.attention_forward_s += compute.time_s(op.name, Pass::forward, op.forward);
        costs.attention_backward_s += compute.time_s(op.name, Pass::backward, op.backward);
        costs.attention_forward_flops += op.forward.flops;
        if (op.recomputed_by_selective) {
            costs.selective_recompute_s += compute.time_s(op.name, Pass::forward, op.forward);
            costs.selective_recompute_flops += op.forward.flops;
        }
    }
    for (const LayerOperation& op : costs.work.mlp) {
        costs.mlp_forward_s += compute.time_s(op.name, Pass::forward, op.forward);
        costs.mlp_backward_s += compute.time_s(op.name, Pass::backward, op.backward);
        costs.mlp_forward_flops += op.forward.flops;
    }
    // Korthikanti's activation formulas count 16-bit values. What recomputation rebuilds during backward is the
    // difference from keeping everything.
    const double scale = storage_element_bytes / 2.0;
    costs.activation_bytes =
        layer_activation_bytes(model, micro_batch, split, recompute.attention, recompute.mlp) * scale;
    const double everything = layer_activation_bytes(model, micro_batch, split, Recompute::none, Recompute::none) * scale;
    costs.recompute_extra_bytes = everything - costs.activation_bytes;
    return costs;
}

}  // namespace parasight
