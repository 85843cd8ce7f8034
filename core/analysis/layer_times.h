#pragma once
// How long each model layer's computation took in a simulated iteration, per device: its forward, backward and
// recompute time summed over the micro-batches, on the first simulated device that ran it (every device that runs a
// layer runs the same work), split into the attention and MLP blocks for a transformer (by the operations'
// names: "attention …", "mlp …"). What the strategy tree shows beside each layer and block after a run.

#include "analysis/timeline.h"

#include <vector>

namespace parasight {

struct PassTimes {
    double forward_s = 0.0;
    double backward_s = 0.0;
    double recompute_s = 0.0;
};

struct LayerTimes {
    PassTimes layer;      // the whole layer
    PassTimes attention;  // its attention block (transformers)
    PassTimes mlp;        // its MLP block (transformers)
};

// By model layer (index = layer); layers no simulated device ran are all zero.
[[nodiscard]] std::vector<LayerTimes> layer_times(const Timeline& timeline);

}  // namespace parasight
