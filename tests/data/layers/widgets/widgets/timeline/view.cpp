// A view reaching into another view's folder and into the simulator's inside (fixture of layers_refuse_widgets).
#include "memory/memory_chart.h"
#include "engine/engine.h"
