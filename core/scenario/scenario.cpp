#include "scenario/scenario.h"

#include <algorithm>

namespace parasight {

const std::array<EnumName<ModelKind>, 2> model_kind_names{{{ModelKind::transformer, "transformer"},
                                                           {ModelKind::cnn, "cnn"}}};
const std::array<EnumName<MlpKind>, 2> mlp_kind_names{{{MlpKind::gelu, "gelu"}, {MlpKind::swiglu, "swiglu"}}};
const std::array<EnumName<CnnLayerType>, 3> cnn_layer_type_names{
    {{CnnLayerType::conv, "conv"}, {CnnLayerType::pool, "pool"}, {CnnLayerType::fc, "fc"}}};
const std::array<EnumName<PoolOp>, 2> pool_op_names{{{PoolOp::max, "max"}, {PoolOp::avg, "avg"}}};
const std::array<EnumName<Shortcut>, 3> shortcut_names{
    {{Shortcut::none, "none"}, {Shortcut::identity, "identity"}, {Shortcut::projection, "projection"}}};
const std::array<EnumName<Dtype>, 5> dtype_names{{{Dtype::fp32, "fp32"},
                                                  {Dtype::tf32, "tf32"},
                                                  {Dtype::fp16, "fp16"},
                                                  {Dtype::bf16, "bf16"},
                                                  {Dtype::fp8, "fp8"}}};
const std::array<EnumName<Dtype>, 4> training_dtype_names{
    {{Dtype::fp32, "fp32"}, {Dtype::fp16, "fp16"}, {Dtype::bf16, "bf16"}, {Dtype::fp8, "fp8"}}};
const std::array<SuggestionAlias, 9> dtype_suggestion_aliases{{{"bfloat16", "bf16"},
                                                                {"float16", "fp16"},
                                                                {"half", "fp16"},
                                                                {"float32", "fp32"},
                                                                {"float", "fp32"},
                                                                {"single", "fp32"},
                                                                {"tensorfloat32", "tf32"},
                                                                {"float8", "fp8"},
                                                                {"e4m3", "fp8"}}};
const std::array<EnumName<Optimizer>, 2> optimizer_names{{{Optimizer::adam, "adam"}, {Optimizer::sgd, "sgd"}}};
const std::array<EnumName<OptimizerImplementation>, 3> optimizer_implementation_names{
    {{OptimizerImplementation::fused, "fused"},
     {OptimizerImplementation::foreach_kernels, "foreach"},
     {OptimizerImplementation::for_loop, "for-loop"}}};
const std::array<EnumName<Attention>, 2> attention_names{
    {{Attention::fused, "fused"}, {Attention::unfused, "unfused"}}};
const std::array<EnumName<TpOverlap>, 2> tp_overlap_names{
    {{TpOverlap::none, "none"}, {TpOverlap::backward, "backward"}}};
const std::array<EnumName<Recompute>, 4> recompute_names{
    {{Recompute::none, "none"},
     {Recompute::selective, "selective"},
     {Recompute::full, "full"},
     {Recompute::selective_op, "selective_op"}}};
const std::array<EnumName<Schedule>, 4> schedule_names{{{Schedule::gpipe, "gpipe"},
                                                         {Schedule::one_f_one_b, "1f1b"},
                                                         {Schedule::interleaved, "interleaved"},
                                                         {Schedule::zb_h1, "zb-h1"}}};
const std::array<EnumName<Zero3Gather>, 2> zero3_gather_names{
    {{Zero3Gather::layer, "layer"}, {Zero3Gather::module, "module"}}};

int ParallelismSpec::degree(ParallelAxis axis) const noexcept {
    switch (axis) {
    case ParallelAxis::tp: return tp;
    case ParallelAxis::cp: return cp;
    case ParallelAxis::ep: return ep;
    case ParallelAxis::dp: return dp;
    case ParallelAxis::pp: return pp;
    }
    return 1;
}

void ParallelismSpec::set_degree(ParallelAxis axis, int value) noexcept {
    switch (axis) {
    case ParallelAxis::tp: tp = value; break;
    case ParallelAxis::cp: cp = value; break;
    case ParallelAxis::ep: ep = value; break;
    case ParallelAxis::dp: dp = value; break;
    case ParallelAxis::pp: pp = value; break;
    }
}

std::vector<AxisDegree> ParallelismSpec::layout_order() const {
    std::vector<AxisDegree> order;
    for (const ParallelAxis axis : mapping) order.push_back(AxisDegree{axis, degree(axis)});
    for (const auto& entry : parallel_axis_names) {
        const bool listed = std::find(mapping.begin(), mapping.end(), entry.value) != mapping.end();
        if (!listed) order.push_back(AxisDegree{entry.value, degree(entry.value)});
    }
    return order;
}

const std::array<EnumName<OffloadTarget>, 4> offload_target_names{{{OffloadTarget::none, "none"},
                                                                   {OffloadTarget::host, "host"},
                                                                   {OffloadTarget::nvme, "nvme"},
                                                                   {OffloadTarget::pool, "pool"}}};

const std::array<EnumName<OptimizerStepPlace>, 2> optimizer_step_place_names{
    {{OptimizerStepPlace::device, "device"}, {OptimizerStepPlace::host, "host"}}};

std::string_view offload_target_words(OffloadTarget target) noexcept {
    switch (target) {
    case OffloadTarget::none: return "the device";
    case OffloadTarget::host: return "host memory";
    case OffloadTarget::nvme: return "NVMe";
    case OffloadTarget::pool: return "the memory pool";
    }
    return "";
}

int ClusterSpec::gpus_per_node() const noexcept {
    if (memory_system.gpus_per_node > 0) return memory_system.gpus_per_node;
    return topology.empty() ? 1 : topology.front().size;
}

std::int64_t Scenario::data_replicas() const noexcept {
    return static_cast<std::int64_t>(parallelism.dp) * parallelism.ep;
}

std::int64_t Scenario::micro_batches() const noexcept {
    return training.global_batch / (data_replicas() * training.micro_batch);
}

std::int64_t Scenario::device_count() const noexcept {
    std::int64_t count = 1;
    for (const Dimension& dimension : cluster.topology) count *= dimension.size;
    return count;
}

}  // namespace parasight
