#include "model/model_states.h"

#include "model/layer_operations.h"

#include <algorithm>

namespace parasight {
namespace {

// ZeRO §5: the stage from which each state is split over the data-parallel ranks (P_os, P_os+g, P_os+g+p).
constexpr int optimizer_sharded_from = 1;
constexpr int gradients_sharded_from = 2;
constexpr int weights_sharded_from = 3;

double shards(int zero_stage, int sharded_from, int dp) {
    return zero_stage >= sharded_from ? static_cast<double>(dp) : 1.0;
}

}  // namespace

double gradient_element_bytes(const TrainingSpec& training) noexcept {
    return training.fp32_gradients ? std::max(4.0, storage_element_bytes(training.dtype))
                                   : storage_element_bytes(training.dtype);
}

ModelStateBytes model_state_bytes(double parameters, const TrainingSpec& training, int zero_stage, int dp) {
    const double stored = storage_element_bytes(training.dtype);
    const double moments = training.optimizer == Optimizer::adam ? 2.0 : 1.0;
    // Mixed precision keeps fp32 master weights for the update (Micikevicius et al. 2018, ZeRO §3.1).
    const double master = stored < 4.0 ? 4.0 : 0.0;
    ModelStateBytes bytes;
    bytes.weights_bytes = stored * parameters / shards(zero_stage, weights_sharded_from, dp);
    bytes.gradients_bytes =
        gradient_element_bytes(training) * parameters / shards(zero_stage, gradients_sharded_from, dp);
    bytes.optimizer_bytes = (master + 4.0 * moments) * parameters / shards(zero_stage, optimizer_sharded_from, dp);
    return bytes;
}

double optimizer_step_parameters(double parameters, int zero_stage, int dp) {
    return parameters / shards(zero_stage, optimizer_sharded_from, dp);
}

double optimizer_kernel_bandwidth_share(OptimizerImplementation implementation) noexcept {
    switch (implementation) {
    case OptimizerImplementation::fused: return 0.813;
    case OptimizerImplementation::foreach_kernels: return 0.891;
    case OptimizerImplementation::for_loop: return 1.011;
    }
    return 1.0;
}

namespace {

// One pass over each parameter: the fp32 states (master weights below 32 bits, moments) read and written, the weights
// written, the gradient read: Adam 4 + 8 read and written again, SGD 4 + 4; fp32: the master copy is the weights.
double fused_step_bytes_per_parameter(const TrainingSpec& training, double gradient_bytes) {
    const bool adam = training.optimizer == Optimizer::adam;
    const bool sixteen_bit_weights = training.dtype != Dtype::fp32;
    return (adam ? 24.0 : 16.0) + (sixteen_bit_weights ? 2.0 : 0.0) + gradient_bytes;
}

}  // namespace

double host_optimizer_step_bytes(double parameters, const TrainingSpec& training) {
    // DeepSpeed's CPU-Adam (csrc/adam/cpu_adam_impl.cpp, Step_AVX) updates each parameter in one vectorised pass and
    // writes its 16-bit copy for the device; the gradients it reads are the fp32 partition the CPU accumulates
    // (stage_1_and_2.py, cpu_offload).
    return parameters * fused_step_bytes_per_parameter(training, 4.0);
}

double optimizer_step_bytes(double parameters, const TrainingSpec& training) {
    const bool adam = training.optimizer == Optimizer::adam;
    const double gradient = gradient_element_bytes(training);
    const bool sixteen_bit_weights = training.dtype != Dtype::fp32;
    double bytes_per_parameter = 0.0;
    if (training.optimizer_implementation == OptimizerImplementation::fused) {
        bytes_per_parameter = fused_step_bytes_per_parameter(training, gradient);
    } else if (adam) {
        // weights · (1 − lr·wd): 8; m.lerp_(g): 8 + g; v · β2: 8; v.addcmul_(g, g): 8 + 2g; sqrt(v): 8; / the bias
        // correction: 8; + ε: 8; weights.addcdiv_(m, denominator): 16.
        bytes_per_parameter = 72.0 + 3.0 * gradient;
    } else {
        // momentum · μ: 8; + g: 8 + g; weights.add_(momentum): 12.
        bytes_per_parameter = 28.0 + gradient;
    }
    if (training.optimizer_implementation != OptimizerImplementation::fused && sixteen_bit_weights) {
        bytes_per_parameter += 6.0;  // the 16-bit weights cast from the fp32 master weights: read 4, write 2
    }
    return parameters * bytes_per_parameter / optimizer_kernel_bandwidth_share(training.optimizer_implementation);
}

}  // namespace parasight
