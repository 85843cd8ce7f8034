#include "export/report_json.h"

#include "export/json_writer.h"
#include "export/warning_text.h"

namespace parasight {

void write_comm_groups(JsonWriter& json, const std::array<double, comm_group_count>& seconds) {
    json.begin_object();
    for (std::size_t g = 0; g < comm_group_count; ++g) json.key(comm_group_names[g].name).value(seconds[g]);
    json.end_object();
}

std::string report_json(const Report& report) {
    JsonWriter json;
    json.begin_object();
    json.key("iteration_time_s").value(report.iteration_time_s);
    json.key("samples_per_s").value(report.samples_per_s);
    json.key("tokens_per_s").value(report.tokens_per_s);
    json.key("devices").value(report.devices);
    json.key("model_flops_per_iteration").value(report.model_flops_per_iteration);
    json.key("model_tflops_per_device").value(report.model_tflops_per_device);
    json.key("mfu").value(report.mfu);
    json.key("hfu").value(report.hfu);
    json.key("breakdown_s").begin_object();
    json.key("compute").value(report.breakdown.compute_s);
    json.key("exposed_local_memory").value(report.breakdown.exposed_local_memory_s);
    json.key("exposed_comm");
    write_comm_groups(json, report.breakdown.exposed_comm_s);
    json.key("exposed_remote_memory").value(report.breakdown.exposed_remote_memory_s);
    json.key("bubble").value(report.breakdown.bubble_s);
    json.key("idle").value(report.breakdown.idle_s);
    json.end_object();
    json.key("memory").begin_object();
    json.key("peak_bytes").value(report.peak_memory_bytes);
    json.key("capacity_bytes").value(report.memory_capacity_bytes);
    json.key("oom").value(report.out_of_memory.has_value());
    json.key("by_category_bytes").begin_object();
    for (std::size_t c = 0; c < memory_category_count; ++c) {
        json.key(memory_category_names[c].name).value(report.memory_by_category_bytes[c]);
    }
    json.end_object();
    if (!report.offloads.empty()) {
        json.key("offloaded").begin_array();
        for (const OffloadUse& use : report.offloads) {
            json.begin_object();
            json.key("tier").value(name_of(use.target, offload_target_names));
            json.key("states").begin_array();
            if (use.parameters) json.value("parameters");
            if (use.gradients) json.value("gradients");
            if (use.optimizer) json.value("optimizer");
            json.end_array();
            json.key("bytes").value(use.bytes);
            json.key("capacity_bytes").value(use.capacity_bytes);
            json.end_object();
        }
        json.end_array();
    }
    if (report.out_of_memory) {
        json.key("oom_at").begin_object();
        json.key("npu").value(report.out_of_memory->npu);
        json.key("tensor").value(report.out_of_memory->tensor);
        json.key("time_s").value(report.out_of_memory->time_s);
        json.end_object();
    }
    json.end_object();
    json.key("simulation").begin_object();
    json.key("events").value(static_cast<std::int64_t>(report.events));
    json.key("wall_s").value(report.wall_s);
    json.key("mode").value(report.mode);
    const SteadyStateUse& steady = report.steady_state;
    json.key("steady_state").begin_object();
    json.key("used").value(steady.used);
    if (steady.used) {
        json.key("period_s").value(steady.period_s);
        json.key("period_micro_batches").value(static_cast<std::int64_t>(steady.period_micro_batches));
        json.key("simulated_micro_batches").value(steady.simulated_micro_batches);
        json.key("repeated_micro_batches").value(steady.repeated_micro_batches);
    } else {
        json.key("reason").value(steady.reason);
    }
    json.end_object();
    json.end_object();
    json.key("warnings").begin_array();
    for (const Warning& warning : report.warnings) json.value(warning_text(warning));
    json.end_array();
    json.end_object();
    return json.text();
}

}  // namespace parasight
