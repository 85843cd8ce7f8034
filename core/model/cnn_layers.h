#pragma once
// CNN layers as ParaDL (Kahira et al. 2021, Table 1) describes them: an activation of C channels × H × W flows
// through conv, pool and fc layers; each layer's FLOPs, parameters and the activation it keeps for backward follow
// from the shapes. Blocks are expanded into their repetitions; a projection shortcut adds a 1×1 convolution.

#include "common/expected.h"
#include "model/layer_operations.h"
#include "scenario/scenario.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parasight {

struct ActivationShape {
    std::int64_t channels = 0;
    std::int64_t height = 0;
    std::int64_t width = 0;
    bool flattened = false;  // after an fc layer

    [[nodiscard]] std::int64_t elements() const noexcept { return channels * height * width; }
    friend bool operator==(const ActivationShape&, const ActivationShape&) = default;
};

// The activation after `layer`, or why the layer cannot take `input` (a kernel larger than the padded input, a
// convolution or pooling after an fc layer).
[[nodiscard]] Expected<ActivationShape> apply_cnn_layer(const CnnLayer& layer, const ActivationShape& input);

// Where an activation cannot pass through a model, and why: the first layer that does not fit, or a block whose
// identity shortcut meets an output of another shape (`layer` is then -1).
struct CnnShapeProblem {
    std::size_t block = 0;  // index into ModelSpec::cnn_layers
    int layer = -1;         // index into that block's layers
    std::string message;
};

// Follows the activation from the model's input through every layer and repetition.
[[nodiscard]] std::optional<CnnShapeProblem> first_cnn_shape_problem(const ModelSpec& model);

struct CnnLayerWork {
    std::string name;            // "conv 3", "block 2.1 conv 2", "block 2.1 shortcut", …
    CnnLayerType type = CnnLayerType::conv;
    ActivationShape input;
    ActivationShape output;
    double parameters = 0.0;     // weights and biases
    double biases = 0.0;         // of the parameters: one per filter of a conv, per output of an fc
    int kernel = 1;              // conv, pool: the square kernel's side; 1 for fc
    LayerOperation operation;    // per micro-batch, forward and backward
    double kept_activation_bytes = 0.0;  // per micro-batch: the layer's input, kept for backward
};

// Every layer of a CNN model in order, per micro-batch of `micro_batch` samples with `element_bytes`-byte values.
// The model must have passed the loader's shape checks.
[[nodiscard]] std::vector<CnnLayerWork> cnn_layer_work(const ModelSpec& model, double micro_batch,
                                                       double element_bytes);

// Forward FLOPs of one sample through the whole network.
[[nodiscard]] double cnn_forward_flops_per_sample(const ModelSpec& model);

}  // namespace parasight
