#include "export/warning_text.h"

#include "analysis/report.h"
#include "common/message_text.h"
#include "units/quantity.h"

namespace parasight {

std::string warning_text(const Warning& warning) {
    using units::Dimension;
    using units::format_fixed;
    using units::format_readable;
    switch (warning.code) {
    case WarningCode::in_flight_capped:
        return warning.subject + " keeps at most " +
               count_phrase(warning.micro_batches, "micro-batch", "micro-batches") +
               " in flight, as the stage before it does: a 1F1B stage cannot run further ahead than the stage that "
               "feeds it";
    case WarningCode::recomputation_frees_nothing:
        return "recomputing " + warning.operation + " frees no activation memory (" +
               count_phrase(warning.layers, "layer") + ", the first layer[" +
               std::to_string(warning.first_layer) +
               "]): nothing it makes can be dropped while the operations that use it are not recomputed; recompute "
               "them too, or leave this one out";
    case WarningCode::out_of_memory:
        return "out of memory: " + warning.subject + " needs " +
               format_readable(warning.needed_bytes, Dimension::size, 4, true) + " of its " +
               format_readable(warning.capacity_bytes, Dimension::size, 4, true) +
               "; the capacity is first exceeded by the " + warning.tensor + " at " +
               format_readable(warning.time_s, Dimension::time);
    case WarningCode::in_flight_cap_without_effect:
        return warning.subject + ": max_ongoing_micro_batches " + std::to_string(warning.requested_micro_batches) +
               " has no effect: the 1F1B schedule keeps at most " + std::to_string(warning.micro_batches) +
               " there anyway; a cap only matters below that";
    case WarningCode::implausible_iteration_time:
        return "one iteration takes " + format_fixed(warning.time_s / seconds_per_julian_year, 1) + " years (" +
               format_readable(warning.time_s, Dimension::time) +
               "): check the units of the link bandwidths and measured operation times";
    case WarningCode::what_if_matches_nothing:
        return warning.subject + " delays nothing: no communication of this run has its group, operation and layers";
    case WarningCode::memory_bound_exceeded: {
        const auto size = [](double bytes) { return format_readable(bytes, Dimension::size); };
        std::string text = "stage " + std::to_string(warning.stage) + " needs at least " + size(warning.needed_bytes) +
                           " (" + size(warning.model_state_bytes) + " of model states";
        if (warning.activation_bytes > 0.0) {
            text += " and " + size(warning.activation_bytes) + " of activations for " +
                    count_phrase(warning.micro_batches, "micro-batch", "micro-batches") + " in flight";
        }
        if (warning.runtime_bytes > 0.0) text += ", " + size(warning.runtime_bytes) + " the runtime holds";
        return text + "), more than the " + size(warning.capacity_bytes) + " of a device";
    }
    case WarningCode::host_bound_layers: {
        const bool graphs = warning.subject.ends_with("graph_kernel_launch");
        const std::string layers = warning.layers == 1 ? "the layer" : "all " + std::to_string(warning.layers) + " layers";
        return "the host's kernel launches bound " + layers + (graphs ? ", even replayed from CUDA graphs" : "") +
               ": a layer's forward and backward take " + format_readable(warning.time_s, Dimension::time) +
               " as launched (" + warning.subject + ") where the GPU needs " +
               format_readable(warning.gpu_time_s, Dimension::time) + "; " +
               (graphs ? "a larger micro-batch" : "replaying them from CUDA graphs (training.cuda_graphs) or a larger "
                                                  "micro-batch") +
               " keeps the GPU busy";
    }
    case WarningCode::offload_over_capacity: {
        const auto size = [](double bytes) { return format_readable(bytes, Dimension::size, 4, true); };
        const std::string_view prefix = "cluster.memory_system.";
        const std::string tier = warning.subject.starts_with(prefix) ? warning.subject.substr(prefix.size()) : "";
        const auto target = value_of(tier, offload_target_names).value_or(OffloadTarget::host);
        const std::string where = target == OffloadTarget::pool ? "from every device"
                                                                : "on the node of NPU " + std::to_string(warning.npu);
        return "the model states offloaded to " + std::string(offload_target_words(target)) + " need " +
               size(warning.needed_bytes) + " " + where + ", more than the " + size(warning.capacity_bytes) +
               " it holds (" + warning.subject + ")";
    }
    }
    return warning.subject;
}

}  // namespace parasight
