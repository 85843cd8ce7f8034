#include "export/chrome_trace.h"

#include "common/json_writer.h"

#include <string>

namespace parasight {
namespace {

constexpr double microseconds = 1e6;

void metadata(JsonWriter& json, const char* name, std::int64_t pid, std::int64_t tid, const std::string& value) {
    json.begin_object();
    json.key("name").value(name);
    json.key("ph").value("M");
    json.key("pid").value(pid);
    json.key("tid").value(tid);
    json.key("args").begin_object().key("name").value(value).end_object();
    json.end_object();
}

}  // namespace

void write_chrome_trace(std::ostream& out, const ExecutionGraph& graph, const EngineRun& run) {
    JsonWriter json(false);
    json.begin_object();
    json.key("displayTimeUnit").value("ms");
    json.key("traceEvents").begin_array();
    for (const SimulatedDevice& device : graph.devices) {
        std::string name = "NPU " + std::to_string(device.npu) + " (stage " + std::to_string(device.stage) + ")";
        if (device.weight > 1.0) {
            name += ", standing for " + std::to_string(static_cast<std::int64_t>(device.weight)) + " devices";
        }
        metadata(json, "process_name", device.npu, 0, name);
        for (const auto& stream : stream_names) {
            metadata(json, "thread_name", device.npu, static_cast<std::int64_t>(stream.value), std::string(stream.name));
        }
    }
    for (std::size_t t = 0; t < graph.tasks.size(); ++t) {
        const Task& task = graph.tasks[t];
        const TaskTiming& timing = run.timings[t];
        const std::int64_t pid = graph.devices[static_cast<std::size_t>(task.device)].npu;
        json.begin_object();
        json.key("name").value(graph.labels[static_cast<std::size_t>(task.label)]);
        json.key("cat").value(name_of(task.kind, task_kind_names));
        json.key("ph").value("X");
        json.key("pid").value(pid);
        json.key("tid").value(static_cast<std::int64_t>(task.stream));
        json.key("ts").value(timing.start_s * microseconds);
        json.key("dur").value((timing.end_s - timing.start_s) * microseconds);
        json.key("args").begin_object();
        if (task.layer >= 0) json.key("layer").value(task.layer);
        if (task.micro_batch >= 0) json.key("micro_batch").value(task.micro_batch);
        if (task.bytes > 0.0) json.key("bytes").value(task.bytes);
        if (task.flops > 0.0) json.key("flops").value(task.flops);
        json.end_object();
        json.end_object();
    }
    for (std::size_t d = 0; d < graph.devices.size(); ++d) {
        const std::int64_t pid = graph.devices[d].npu;
        for (const MemorySample& sample : run.memory[d].timeline) {
            json.begin_object();
            json.key("name").value("memory");
            json.key("ph").value("C");
            json.key("pid").value(pid);
            json.key("ts").value(sample.time_s * microseconds);
            json.key("args").begin_object().key("GiB").value(sample.bytes / (1024.0 * 1024.0 * 1024.0)).end_object();
            json.end_object();
        }
    }
    json.end_array();
    json.end_object();
    out << json.text() << '\n';
}

}  // namespace parasight
