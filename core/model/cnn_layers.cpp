#include "model/cnn_layers.h"

#include <algorithm>

namespace parasight {

Expected<ActivationShape> apply_cnn_layer(const CnnLayer& layer, const ActivationShape& input) {
    if (layer.type == CnnLayerType::fc) return ActivationShape{layer.outputs, 1, 1, true};
    if (input.flattened) {
        return Error{"a " + std::string(name_of(layer.type, cnn_layer_type_names)) +
                     " layer cannot follow an fc layer: the activation is already flat"};
    }
    if (input.height + 2 * layer.padding < layer.kernel || input.width + 2 * layer.padding < layer.kernel) {
        return Error{"kernel " + std::to_string(layer.kernel) + " does not fit the " + std::to_string(input.height) +
                     "x" + std::to_string(input.width) + " activation (with padding " + std::to_string(layer.padding) +
                     ")"};
    }
    ActivationShape output = input;
    output.height = (input.height + 2 * layer.padding - layer.kernel) / layer.stride + 1;
    output.width = (input.width + 2 * layer.padding - layer.kernel) / layer.stride + 1;
    if (layer.type == CnnLayerType::conv) output.channels = layer.filters;
    return output;
}

std::optional<CnnShapeProblem> first_cnn_shape_problem(const ModelSpec& model) {
    ActivationShape shape{model.input.channels, model.input.height, model.input.width, false};
    for (std::size_t i = 0; i < model.cnn_layers.size(); ++i) {
        const CnnBlock& block = model.cnn_layers[i];
        for (int r = 0; r < block.repeat; ++r) {
            const ActivationShape before = shape;
            for (std::size_t j = 0; j < block.layers.size(); ++j) {
                const auto next = apply_cnn_layer(block.layers[j], shape);
                if (!next) return CnnShapeProblem{i, static_cast<int>(j), next.error()};
                shape = *next;
            }
            if (block.shortcut == Shortcut::identity &&
                (before.channels != shape.channels || before.height != shape.height || before.width != shape.width)) {
                return CnnShapeProblem{
                    i, -1,
                    "an identity shortcut needs the block to keep its shape, but repetition " + std::to_string(r + 1) +
                        " turns " + std::to_string(before.channels) + "x" + std::to_string(before.height) + "x" +
                        std::to_string(before.width) + " into " + std::to_string(shape.channels) + "x" +
                        std::to_string(shape.height) + "x" + std::to_string(shape.width) + "; use shortcut: projection"};
            }
        }
    }
    return std::nullopt;
}

namespace {

// ParaDL Table 1 with b samples: a convolution is a matmul of [b·H_out·W_out × C·K²] by [C·K² × F]; its backward
// computes the input and the weight gradients (2× the FLOPs). Each convolution is followed by BatchNorm and ReLU,
// which read and write the output twice more (memory-bound; ParaDL leaves them out).
CnnLayerWork conv_work(std::string name, const CnnLayer& layer, const ActivationShape& input,
                       const ActivationShape& output, double b, double eb) {
    CnnLayerWork work;
    work.name = std::move(name);
    work.type = CnnLayerType::conv;
    work.input = input;
    work.output = output;
    const double k2c = static_cast<double>(layer.kernel) * layer.kernel * static_cast<double>(input.channels);
    const double f = layer.filters;
    const double positions = b * static_cast<double>(output.height * output.width);
    work.parameters = k2c * f + f;
    work.biases = f;
    work.kernel = layer.kernel;
    work.operation.name = "conv";
    // An implicit GEMM: the output positions × the filters, reduced over K²·C.
    const MatmulPasses passes = matmul_passes(
        {positions, f, k2c, 1.0}, (b * static_cast<double>(input.elements()) + k2c * f + 5.0 * positions * f) * eb, true);
    work.operation.forward = passes.forward;
    work.operation.backward = passes.backward;
    work.kept_activation_bytes = b * static_cast<double>(input.elements()) * eb;
    return work;
}

// Pooling reads its input and writes its output; K² operations per output value.
CnnLayerWork pool_work(std::string name, const CnnLayer& layer, const ActivationShape& input,
                       const ActivationShape& output, double b, double eb) {
    CnnLayerWork work;
    work.name = std::move(name);
    work.type = CnnLayerType::pool;
    work.input = input;
    work.output = output;
    work.kernel = layer.kernel;
    work.operation.name = "pool";
    work.operation.forward.flops = b * static_cast<double>(output.elements()) * layer.kernel * layer.kernel;
    work.operation.forward.memory_bytes = b * static_cast<double>(input.elements() + output.elements()) * eb;
    // Backward counted as twice the forward, the convention model FLOPs use for every layer (3× forward in all).
    work.operation.backward = work.operation.forward;
    work.operation.backward.flops *= 2.0;
    work.operation.backward.memory_bytes *= 2.0;
    work.kept_activation_bytes = b * static_cast<double>(input.elements()) * eb;
    return work;
}

// A fully connected layer: [b × in] by [in × out].
CnnLayerWork fc_work(std::string name, const ActivationShape& input, const ActivationShape& output, double b,
                     double eb) {
    CnnLayerWork work;
    work.name = std::move(name);
    work.type = CnnLayerType::fc;
    work.input = input;
    work.output = output;
    const double in = static_cast<double>(input.elements());
    const double out = static_cast<double>(output.elements());
    work.parameters = in * out + out;
    work.biases = out;
    work.operation.name = "fc";
    const MatmulPasses passes = matmul_passes({b, out, in, 1.0}, (b * in + in * out + b * out) * eb, true);
    work.operation.forward = passes.forward;
    work.operation.backward = passes.backward;
    work.kept_activation_bytes = b * in * eb;
    return work;
}

}  // namespace

std::vector<CnnLayerWork> cnn_layer_work(const ModelSpec& model, double micro_batch, double element_bytes) {
    std::vector<CnnLayerWork> layers;
    ActivationShape shape{model.input.channels, model.input.height, model.input.width, false};
    for (std::size_t b = 0; b < model.cnn_layers.size(); ++b) {
        const CnnBlock& block = model.cnn_layers[b];
        const bool single = block.repeat == 1 && block.layers.size() == 1 && block.shortcut == Shortcut::none;
        for (int r = 0; r < block.repeat; ++r) {
            const ActivationShape block_input = shape;
            for (std::size_t j = 0; j < block.layers.size(); ++j) {
                const CnnLayer& layer = block.layers[j];
                const auto next = apply_cnn_layer(layer, shape);
                if (!next) return layers;  // the loader has reported it
                std::string name = std::string(name_of(layer.type, cnn_layer_type_names)) + " " +
                                   std::to_string(layers.size());
                if (!single) {
                    name = "block " + std::to_string(b) + "." + std::to_string(r) + " " +
                           std::string(name_of(layer.type, cnn_layer_type_names)) + " " + std::to_string(j);
                }
                switch (layer.type) {
                case CnnLayerType::conv:
                    layers.push_back(conv_work(name, layer, shape, *next, micro_batch, element_bytes));
                    break;
                case CnnLayerType::pool:
                    layers.push_back(pool_work(name, layer, shape, *next, micro_batch, element_bytes));
                    break;
                case CnnLayerType::fc: layers.push_back(fc_work(name, shape, *next, micro_batch, element_bytes)); break;
                }
                shape = *next;
            }
            // A projection shortcut on the first repetition: a 1×1 convolution from the block's input to its output
            // shape, with the block's spatial stride (He et al. 2016 §3.3, option B).
            if (block.shortcut == Shortcut::projection && r == 0) {
                CnnLayer projection;
                projection.type = CnnLayerType::conv;
                projection.filters = static_cast<int>(shape.channels);
                projection.kernel = 1;
                projection.stride = static_cast<int>(std::max<std::int64_t>(1, block_input.height / shape.height));
                layers.push_back(conv_work("block " + std::to_string(b) + ".0 shortcut", projection, block_input, shape,
                                           micro_batch, element_bytes));
            }
        }
    }
    return layers;
}

double cnn_forward_flops_per_sample(const ModelSpec& model) {
    double flops = 0.0;
    for (const CnnLayerWork& layer : cnn_layer_work(model, 1.0, 2.0)) flops += layer.operation.forward.flops;
    return flops;
}

}  // namespace parasight
