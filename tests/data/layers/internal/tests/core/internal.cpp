// A test that includes a header internal to core/compile: core/layers.cmake must refuse it.
#include "compile/graph_builder.h"
