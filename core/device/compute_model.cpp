#include "device/compute_model.h"

#include <algorithm>

namespace parasight {

double ComputeModel::matmul_efficiency_at(double min_dim) const noexcept {
    if (min_dim <= 0.0) return matmul_efficiency;
    return matmul_efficiency * min_dim / (min_dim + matmul_half_dim);
}

double ComputeModel::time_s(const OperationWork& work) const noexcept {
    const double efficiency = work.fused_attention ? attention_efficiency : matmul_efficiency_at(work.matmul_min_dim);
    const double peak = work.linear_gemm ? peak_flops : other_operations_peak_flops;
    const double compute_s = work.flops > 0.0 ? work.flops / (peak * efficiency) : 0.0;
    const double memory_s = work.memory_bytes / (memory_bandwidth_Bps * memory_efficiency);
    return std::max(compute_s, memory_s);
}

double ComputeModel::time_s(std::string_view operation, Pass pass, const OperationWork& work) const {
    if (!measured_times_s.empty()) {
        if (const auto it = measured_times_s.find(measured_key(operation, pass)); it != measured_times_s.end()) {
            return it->second;
        }
    }
    return time_s(work);
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
    model.matmul_half_dim = device.matmul_half_dim;
    model.memory_efficiency = device.memory_efficiency;
    model.attention_efficiency = device.attention_efficiency;
    model.measured_times_s = std::move(measured_times_s);
    return model;
}

}  // namespace parasight
