#pragma once
// How long an operation takes on a device: a roofline with size-dependent matmul efficiency (Williams et al. 2009,
// "Roofline"); memory-bound operations run at the achievable memory bandwidth. A table of measured operation times
// may replace the roofline for named operations (DistSim's idea: cost each distinct operation once, then reuse).

#include "device/measured_operations.h"
#include "scenario/scenario.h"

#include <map>
#include <string>

namespace parasight {

// One operation's work on one device.
struct OperationWork {
    double flops = 0.0;
    double memory_bytes = 0.0;   // bytes read and written from device memory
    double matmul_min_dim = 0.0; // the smallest of a matmul's M, N, K; 0 for an operation that is not a matmul
    // A fused attention kernel: its FLOPs run at the device's attention_efficiency rather than the matmul rule.
    bool fused_attention = false;
    // A linear layer's GEMM (QKV, projection, MLP; a CNN's convolutions and fully connected layers): the operations an
    // fp8 recipe runs in fp8. Everything else — the attention core, the logits, norms, activations — runs in bf16.
    bool linear_gemm = false;
};

struct ComputeModel {
    double peak_flops = 0.0;            // for the training dtype
    // What operations other than linear GEMMs run at: with fp8 training, the bf16 peak (Transformer Engine's fp8
    // recipe casts only its linear layers' GEMM inputs to fp8); otherwise peak_flops.
    double other_operations_peak_flops = 0.0;
    double memory_bandwidth_Bps = 0.0;  // datasheet peak
    double matmul_efficiency = 0.0;     // of peak, for large matmuls
    double matmul_half_dim = 0.0;       // the smallest matmul dimension at which half of matmul_efficiency is reached
    double memory_efficiency = 0.0;     // of the datasheet bandwidth that streaming kernels achieve
    double attention_efficiency = 0.0;  // of peak, for a fused attention kernel
    std::map<std::string, double> measured_times_s;  // by measured_key(operation, pass)

    // The roofline: max(flops / achievable FLOP/s, bytes / achievable bandwidth); achievable FLOP/s is
    // peak · attention_efficiency for a fused attention kernel, peak · matmul_efficiency_at(min dim) otherwise, the
    // peak being peak_flops for a linear GEMM and other_operations_peak_flops for the rest.
    [[nodiscard]] double time_s(const OperationWork& work) const noexcept;
    // The measured time of `operation` in `pass` when the table has one, else the roofline.
    [[nodiscard]] double time_s(std::string_view operation, Pass pass, const OperationWork& work) const;
    // matmul_efficiency · d / (d + matmul_half_dim): small matmuls leave the tensor cores idle.
    [[nodiscard]] double matmul_efficiency_at(double min_dim) const noexcept;
};

[[nodiscard]] ComputeModel make_compute_model(const DeviceSpec& device, Dtype dtype,
                                              std::map<std::string, double> measured_times_s = {});

}  // namespace parasight
