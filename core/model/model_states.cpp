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

double optimizer_step_bytes(double parameters, const TrainingSpec& training) {
    // The fp32 states (master weights below 32 bits, moments) read and written, the weights written, the gradient
    // read: Adam 4 + 8 read and written again, SGD 4 + 4.
    const double states = training.optimizer == Optimizer::adam ? 24.0 : 16.0;
    const double weights = training.dtype == Dtype::fp32 ? 0.0 : 2.0;  // fp32: the master copy is the weights
    return parameters * (states + weights + gradient_element_bytes(training));
}

}  // namespace parasight
