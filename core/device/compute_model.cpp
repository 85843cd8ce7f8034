#include "device/compute_model.h"

#include <algorithm>

namespace parasight {

MatmulPasses matmul_passes(const MatmulShape& shape, double forward_memory_bytes, bool linear_gemm) noexcept {
    MatmulPasses passes;
    passes.forward.flops = shape.flops();
    passes.forward.memory_bytes = forward_memory_bytes;
    passes.forward.matmuls[0] = shape;
    passes.forward.linear_gemm = linear_gemm;
    passes.backward = passes.forward;
    passes.backward.flops *= 2.0;
    passes.backward.memory_bytes *= 2.0;
    passes.backward.matmuls[0] = {shape.m, shape.k, shape.n, shape.batch};  // dX = dY · Wᵀ
    passes.backward.matmuls[1] = {shape.k, shape.n, shape.m, shape.batch};  // dW = Xᵀ · dY
    return passes;
}

double ComputeModel::matmul_efficiency_of(const MatmulShape& shape) const noexcept {
    if (streaming_multiprocessors <= 0) return matmul_efficiency * depth_efficiency(shape.k, matmul_half_dim);
    return matmul_efficiency * best_tile(shape, streaming_multiprocessors, matmul_half_dim).efficiency;
}

double ComputeModel::attention_efficiency_of(const MatmulShape& problem) const noexcept {
    if (streaming_multiprocessors <= 0 || problem.flops() <= 0.0) return attention_efficiency;
    return attention_efficiency * tile_fill(problem.batch, problem.m, 1.0, {128, 1}, streaming_multiprocessors) *
           attention_shape_factor(problem.n, problem.k);
}

double attention_shape_factor(double keys_per_query, double head_dim) noexcept {
    // Fitted to forward + backward of cuDNN's and FlashAttention-2's kernels measured on an H100 SXM (parasight-
    // calibrate --survey, 2026-11-27; tests/data/calibration/h100-sxm-2026-11-27): keys per query 256-16384 follow
    // n / (n + 420) (cuDNN) and n / (n + 380) (FlashAttention-2); head width 64 runs at 0.80 (cuDNN) and 0.91
    // (FlashAttention-2) of width 128, between which d / (d + 32) lies (0.83).
    constexpr double half_keys = 400.0;
    constexpr double half_width = 32.0;
    const double keys = keys_per_query / (keys_per_query + half_keys);
    const double width = (head_dim / (head_dim + half_width)) / (128.0 / (128.0 + half_width));
    return keys * width;
}

namespace {

// A GEMM's FLOPs over the FLOP/s it runs at.
double gemm_compute_s(const ComputeModel& model, const MatmulShape& shape, double peak) noexcept {
    return shape.flops() / (peak * model.matmul_efficiency_of(shape));
}

}  // namespace

KernelTime ComputeModel::kernel_time(const OperationWork& work) const noexcept {
    const double peak = work.linear_gemm ? peak_flops : other_operations_peak_flops;
    double compute_s = 0.0;
    if (work.fused_attention) {
        compute_s = work.flops / (peak * attention_efficiency_of(work.matmuls[0]));
    } else if (work.flops > 0.0) {
        double shaped_flops = 0.0;
        const double scale = work.linear_gemm ? linear_gemm_efficiency_scale : 1.0;
        for (const MatmulShape& shape : work.matmuls) {
            if (shape.flops() <= 0.0) continue;
            compute_s += gemm_compute_s(*this, shape, peak) / scale;
            shaped_flops += shape.flops();
        }
        compute_s += std::max(0.0, work.flops - shaped_flops) / (peak * matmul_efficiency * scale);
    }
    const double bandwidth_Bps = memory_bandwidth_Bps * memory_efficiency;
    const double streaming_s = work.memory_bytes / bandwidth_Bps;
    const double trailing_s = work.trailing_memory_bytes / bandwidth_Bps;
    return {std::max(compute_s, streaming_s) + trailing_s, std::max(0.0, streaming_s - compute_s) + trailing_s};
}

double ComputeModel::weight_gradient_share(const OperationWork& backward) const noexcept {
    const MatmulShape& input_gradient = backward.matmuls[0];
    const MatmulShape& weight_gradient = backward.matmuls[1];
    if (input_gradient.flops() <= 0.0 || weight_gradient.flops() <= 0.0) return 0.5;
    const double input_s = gemm_compute_s(*this, input_gradient, 1.0);
    const double weight_s = gemm_compute_s(*this, weight_gradient, 1.0);
    return weight_s / (input_s + weight_s);
}

KernelTime ComputeModel::kernel_time(std::string_view operation, Pass pass, const OperationWork& work) const {
    const KernelTime roofline = kernel_time(work);
    if (!measured_times_s.empty()) {
        if (const auto it = measured_times_s.find(measured_key(operation, pass)); it != measured_times_s.end()) {
            return {it->second, it->second * roofline.memory_bound_share()};
        }
    }
    return roofline;
}

ComputeModel make_compute_model(const DeviceSpec& device, Dtype dtype, std::map<std::string, double> measured_times_s) {
    ComputeModel model;
    const auto peak = device.peak_flops.find(dtype);
    model.peak_flops = peak != device.peak_flops.end() ? peak->second : 0.0;
    model.other_operations_peak_flops = model.peak_flops;
    if (dtype == Dtype::fp8) {
        // Transformer Engine's fp8 recipe (NVIDIA, "Using FP8 with Transformer Engine"): only the linear layers'
        // GEMMs take fp8 inputs; the rest stays in bf16 (fp16 on a device without bf16).
        for (const Dtype wider : {Dtype::bf16, Dtype::fp16}) {
            if (const auto it = device.peak_flops.find(wider); it != device.peak_flops.end()) {
                model.other_operations_peak_flops = it->second;
                break;
            }
        }
    }
    model.memory_bandwidth_Bps = device.memory_bandwidth_Bps;
    model.matmul_efficiency = device.matmul_efficiency;
    if (dtype == Dtype::fp8 && device.fp8_matmul_efficiency > 0.0 && device.matmul_efficiency > 0.0) {
        model.linear_gemm_efficiency_scale = device.fp8_matmul_efficiency / device.matmul_efficiency;
    }
    model.matmul_half_dim = device.matmul_half_dim;
    model.streaming_multiprocessors = device.streaming_multiprocessors;
    model.memory_efficiency = device.memory_efficiency;
    model.attention_efficiency = device.attention_efficiency;
    model.measured_times_s = std::move(measured_times_s);
    return model;
}

ComputeModel make_compute_model(const Scenario& scenario) {
    const DeviceSpec& device = scenario.cluster.device;
    ComputeModel model = make_compute_model(device, scenario.training.dtype, scenario.simulation.measured_times_s);
    model.kernel_launch_s = scenario.training.cuda_graphs ? device.graph_kernel_launch_s : device.kernel_launch_s;
    return model;
}

}  // namespace parasight
