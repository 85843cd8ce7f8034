#pragma once
// What pipelining sees of a model: its layers in order, for either kind of model.

#include "scenario/scenario.h"

namespace parasight {

// Layers a pipeline splits into stages: a transformer's layers (encoder and decoder); a CNN's expanded layers —
// every repetition of every block, and each projection shortcut's 1×1 convolution.
[[nodiscard]] int pipeline_layer_count(const ModelSpec& model);

}  // namespace parasight
