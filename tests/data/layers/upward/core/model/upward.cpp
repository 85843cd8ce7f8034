// A model file that reaches up to the simulation layer: core/layers.cmake must refuse it.
#include "simulation/simulate.h"
