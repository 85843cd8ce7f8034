#include "model/model_structure.h"

#include "model/cnn_layers.h"

namespace parasight {

int pipeline_layer_count(const ModelSpec& model) {
    if (model.kind == ModelKind::transformer) return model.layers + model.decoder_layers;
    return static_cast<int>(cnn_layer_work(model, 1.0, 2.0).size());
}

}  // namespace parasight
