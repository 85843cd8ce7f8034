#include "compile/compiler.h"

#include "compile/graph_builder.h"

namespace parasight {

Expected<ExecutionGraph> compile_scenario(const Scenario& scenario, const CompileOptions& options) {
    const auto layout = ParallelLayout::make(scenario.topology(), scenario.parallelism.layout_order());
    if (!layout) return Error{layout.error()};
    GraphBuilder builder(scenario, *layout, options);
    return builder.build();
}

}  // namespace parasight
