#include "compile/layer_costs.h"

namespace parasight {
namespace {

int pass_kernels(const std::vector<LayerOperation>& operations, bool forward) {
    int kernels = 0;
    for (const LayerOperation& op : operations) kernels += forward ? op.forward.kernels : op.backward.kernels;
    return kernels;
}

// The kernel launch floor (docs/model.md §2): the host launches a layer's kernels one after another while the GPU
// runs those queued before, so a pass takes max(the GPU's time, kernels × the host's time per kernel). A pass the host
// bounds is stretched as a whole, each part in proportion, keeping its memory-bound share.
void apply_launch_floor(LayerCosts& costs, double kernel_launch_s) {
    const auto passes_s = [&] {
        return costs.attention.forward.total_s + costs.mlp.forward.total_s + costs.attention.backward.total_s +
               costs.mlp.backward.total_s;
    };
    costs.gpu_pass_s = passes_s();
    costs.launched_pass_s = costs.gpu_pass_s;
    if (!(kernel_launch_s > 0.0)) return;
    const auto stretch = [](double gpu_s, int kernels, double launch_s) {
        const double host_s = kernels * launch_s;
        return gpu_s > 0.0 && host_s > gpu_s ? host_s / gpu_s : 1.0;
    };
    const double forward = stretch(costs.attention.forward.total_s + costs.mlp.forward.total_s,
                                   pass_kernels(costs.work.attention, true) + pass_kernels(costs.work.mlp, true),
                                   kernel_launch_s);
    const double backward = stretch(costs.attention.backward.total_s + costs.mlp.backward.total_s,
                                    pass_kernels(costs.work.attention, false) + pass_kernels(costs.work.mlp, false),
                                    kernel_launch_s);
    for (BlockCosts* block : {&costs.attention, &costs.mlp}) {
        block->forward = block->forward * forward;
        block->recompute = block->recompute * forward;
        block->backward = block->backward * backward;
        block->before_weight_gradient = block->before_weight_gradient * backward;
        block->weight_gradient = block->weight_gradient * backward;
        block->weight_gradients = block->weight_gradients * backward;
    }
    costs.launched_pass_s = passes_s();
}

}  // namespace

LayerCosts transformer_layer_costs(const ModelSpec& model, const ParallelismSpec& parallelism,
                                   const TrainingSpec& training, double micro_batch, const ComputeModel& compute,
                                   double compute_element_bytes, double storage_element_bytes,
                                   const RecomputedOperations& recomputed) {
    const LayerSplit split{parallelism.tp,   parallelism.cp,     parallelism.sequence_parallel,
                           Recompute::none, training.attention, training.eager_kernels};
    LayerCosts costs;
    costs.work = transformer_layer_work(model, micro_batch, split, compute_element_bytes);
    const auto sum_block = [&](LayerBlock block, BlockCosts& sum) {
        const std::vector<LayerOperation>& operations = costs.work.block(block);
        for (std::size_t i = 0; i < operations.size(); ++i) {
            const LayerOperation& op = operations[i];
            const KernelTime op_forward = compute.kernel_time(op.name, Pass::forward, op.forward);
            const KernelTime op_backward = compute.kernel_time(op.name, Pass::backward, op.backward);
            const double weight_share = compute.weight_gradient_share(op.backward);
            sum.forward += op_forward;
            sum.backward += op_backward;
            sum.forward_flops += op.forward.flops;
            sum.backward_flops += op.backward.flops;
            if (i >= 2) {
                sum.before_weight_gradient += op_backward;
                sum.before_weight_gradient_flops += op.backward.flops;
            } else if (i == 1) {
                sum.before_weight_gradient += op_backward * (1.0 - weight_share);
                sum.before_weight_gradient_flops += op.backward.flops / 2.0;
                sum.weight_gradient += op_backward * weight_share;
                sum.weight_gradient_flops += op.backward.flops / 2.0;
            } else {
                sum.weight_gradient += op_backward;
                sum.weight_gradient_flops += op.backward.flops;
            }
            if (has_weights(block, static_cast<int>(i))) {
                sum.weight_gradients += op_backward * weight_share;
                sum.weight_gradients_flops += op.backward.flops / 2.0;
            }
            const double redone = recomputed_share(model, recomputed, block, static_cast<int>(i));
            sum.recompute += op_forward * redone;
            sum.recompute_flops += redone * op.forward.flops;
        }
    };
    sum_block(LayerBlock::attention, costs.attention);
    sum_block(LayerBlock::mlp, costs.mlp);
    apply_launch_floor(costs, compute.kernel_launch_s);
    // Korthikanti's activation formulas count 16-bit values. What recomputation rebuilds during backward is the
    // difference from keeping everything.
    const double scale = storage_element_bytes / 2.0;
    costs.activation_bytes = layer_activation_bytes(model, micro_batch, split, recomputed) * scale;
    const double everything = layer_activation_bytes(model, micro_batch, split, RecomputedOperations{}) * scale;
    costs.recompute_extra_bytes = everything - costs.activation_bytes;
    return costs;
}

}  // namespace parasight
