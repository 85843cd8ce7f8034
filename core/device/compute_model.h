#pragma once
// How long an operation takes on a device: a roofline (Williams et al. 2009, "Roofline") whose matmuls run at an
// efficiency that depends on their shape — tile and wave quantisation on the device's streaming multiprocessors
// (device/matmul_tiles.h) and the depth each tile accumulates over; memory-bound operations run at the achievable
// memory bandwidth. A table of measured operation times
// may replace the roofline for named operations (DistSim's idea: cost each distinct operation once, then reuse).

#include "device/kernel_time.h"
#include "device/matmul_tiles.h"
#include "device/measured_operations.h"
#include "scenario/scenario.h"

#include <array>
#include <map>
#include <string>

namespace parasight {

// One operation's work on one device.
struct OperationWork {
    double flops = 0.0;
    double memory_bytes = 0.0;   // bytes read and written from device memory
    // The GEMMs the operation runs, whose FLOPs make up `flops` (FLOPs beyond them run at the large-matmul
    // efficiency): a matmul's forward is one; its backward two, the input gradient then the weight gradient.
    std::array<MatmulShape, 2> matmuls{};
    // A fused attention kernel: its FLOPs run at the device's attention_efficiency rather than the matmul rule, on
    // thread blocks of 128 queries; matmuls[0] is one of its problems (m queries, n keys, k the head width) and
    // batch how many (heads × samples).
    bool fused_attention = false;
    // A linear layer's GEMM (QKV, projection, MLP; a CNN's convolutions and fully connected layers): the operations an
    // fp8 recipe runs in fp8. Everything else — the attention core, the logits, norms, activations — runs in bf16.
    bool linear_gemm = false;
    // Bytes moved by memory-bound kernels that run after the operation's own, one after the other, so that their time
    // adds to the roofline's rather than hiding under it (eager PyTorch's cross-entropy over the logits).
    double trailing_memory_bytes = 0.0;
    // The GPU kernels the pass launches, each of which the host launches in turn (torch.profiler's counts;
    // docs/model.md §2, "Kernel launch floor"); 0 where none are counted.
    int kernels = 0;
};

// A GEMM's two passes: forward `shape`; backward its input gradient (m × k over n) and weight gradient (k × n over
// m), twice the FLOPs and twice the traffic.
struct MatmulPasses {
    OperationWork forward;
    OperationWork backward;
};
[[nodiscard]] MatmulPasses matmul_passes(const MatmulShape& shape, double forward_memory_bytes, bool linear_gemm) noexcept;

struct ComputeModel {
    double peak_flops = 0.0;            // for the training dtype
    // What operations other than linear GEMMs run at: with fp8 training, the bf16 peak (Transformer Engine's fp8
    // recipe casts only its linear layers' GEMM inputs to fp8); otherwise peak_flops.
    double other_operations_peak_flops = 0.0;
    double memory_bandwidth_Bps = 0.0;  // datasheet peak
    double matmul_efficiency = 0.0;     // of peak, for large matmuls
    // What a linear GEMM's efficiency is multiplied by: with fp8 training, fp8_matmul_efficiency / matmul_efficiency
    // where the device gives one; otherwise 1.
    double linear_gemm_efficiency_scale = 1.0;
    double matmul_half_dim = 0.0;       // the depth k at which a GEMM tile reaches half of matmul_efficiency
    int streaming_multiprocessors = 0;  // 0: the device names none, and matmuls run without tile quantisation
    double memory_efficiency = 0.0;     // of the datasheet bandwidth that streaming kernels achieve
    double attention_efficiency = 0.0;  // of peak, for a fused attention kernel
    // The host's time to launch one kernel in this run: the device's kernel_launch, or graph_kernel_launch with
    // training.cuda_graphs; 0: no launch floor (docs/model.md §2, "Kernel launch floor").
    double kernel_launch_s = 0.0;
    std::map<std::string, double> measured_times_s;  // by measured_key(operation, pass)

    // The roofline: max(compute time, bytes / achievable bandwidth), then the trailing bytes at that bandwidth.
    // Compute time: each GEMM's FLOPs at
    // peak · matmul_efficiency_of(its shape), the rest at peak · matmul_efficiency; a fused attention kernel's at
    // peak · attention_efficiency_of(its problem). The peak is peak_flops for a linear GEMM and
    // other_operations_peak_flops for the rest.
    // Of that time, the memory-bound part is max(0, bytes' time − compute time) + the trailing bytes' time.
    [[nodiscard]] KernelTime kernel_time(const OperationWork& work) const noexcept;
    // The measured time of `operation` in `pass` when the table has one, else the roofline; a measured time is as
    // memory-bound as the roofline's for the operation (a table gives times, not what bounds them).
    [[nodiscard]] KernelTime kernel_time(std::string_view operation, Pass pass, const OperationWork& work) const;
    [[nodiscard]] double time_s(const OperationWork& work) const noexcept { return kernel_time(work).total_s; }
    [[nodiscard]] double time_s(std::string_view operation, Pass pass, const OperationWork& work) const {
        return kernel_time(operation, pass, work).total_s;
    }
    // matmul_efficiency · the best tile's fill × speed × depth efficiency k / (k + matmul_half_dim) (each tile pays a
    // fixed prologue and epilogue besides its k loop), split along k where that is faster (device/matmul_tiles.h);
    // without streaming multiprocessors, matmul_efficiency · k / (k + matmul_half_dim).
    [[nodiscard]] double matmul_efficiency_of(const MatmulShape& shape) const noexcept;
    // attention_efficiency · the fill of 128-query thread blocks (FlashAttention-2 parallelises over samples, heads
    // and blocks of 128 queries; Dao 2023 §3.2) on the streaming multiprocessors · attention_shape_factor(keys per
    // query, head width); attention_efficiency alone on a device without SMs. `problem`: m queries, n keys computed
    // per query, k the head width, batch the problems.
    [[nodiscard]] double attention_efficiency_of(const MatmulShape& problem) const noexcept;
    // The share of a backward's compute time that is its weight gradient (matmuls[1]); half without GEMMs.
    [[nodiscard]] double weight_gradient_share(const OperationWork& backward) const noexcept;
};

// What a fused attention kernel's efficiency is multiplied by for its shape, 1 for long sequences at head width 128
// (what attention_efficiency describes): n / (n + 400) for n keys computed per query — each query block's prologue,
// epilogue and softmax rescaling are paid over fewer keys — times (d / (d + 32)) / (128 / 160) for head width d.
[[nodiscard]] double attention_shape_factor(double keys_per_query, double head_dim) noexcept;

[[nodiscard]] ComputeModel make_compute_model(const DeviceSpec& device, Dtype dtype,
                                              std::map<std::string, double> measured_times_s = {});
// The scenario's: its device and training dtype, its measured operations, and the launch floor of its kernels (the
// device's graph_kernel_launch with training.cuda_graphs, else its kernel_launch).
[[nodiscard]] ComputeModel make_compute_model(const Scenario& scenario);

}  // namespace parasight
