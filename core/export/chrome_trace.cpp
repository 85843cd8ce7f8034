#include "export/chrome_trace.h"

#include "export/json_writer.h"

#include <string>

namespace parasight {
namespace {

constexpr double microseconds = 1e6;
constexpr std::size_t events_per_piece = 4096;  // written to the stream together

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

void write_chrome_trace(std::ostream& out, const Timeline& timeline) {
    JsonWriter json(false);
    json.begin_object();
    json.key("displayTimeUnit").value("ms");
    json.key("traceEvents").begin_array();
    const auto& devices = timeline.devices();
    for (std::size_t index = 0; index < devices.size(); ++index) {
        const TimelineDevice& device = devices[index];
        std::string name = "NPU " + std::to_string(device.npu) + " (stage " + std::to_string(device.stage) + ")";
        if (device.weight > 1.0) {
            name += ", standing for " + std::to_string(static_cast<std::int64_t>(device.weight)) + " devices";
        }
        metadata(json, "process_name", device.npu, 0, name);
        // A thread for each stream the device used (the memory stream only where states are offloaded).
        for (const auto& stream : stream_names) {
            if (timeline.lane(index, stream.value).empty()) continue;
            metadata(json, "thread_name", device.npu, static_cast<std::int64_t>(stream.value), std::string(stream.name));
        }
    }
    json.drain(out);
    std::size_t written = 0;
    // In event order, as the simulation added them: the same file as before the Timeline existed.
    for (EventId id = 0; id < timeline.event_count(); ++id) {
        const TimelineEvent event = timeline.event(id);
        json.begin_object();
        json.key("name").value(event.operation);
        json.key("cat").value(name_of(event.kind, task_kind_names));
        json.key("ph").value("X");
        json.key("pid").value(devices[event.device].npu);
        json.key("tid").value(static_cast<std::int64_t>(event.stream));
        json.key("ts").value(event.start_s * microseconds);
        json.key("dur").value((event.end_s - event.start_s) * microseconds);
        json.key("args").begin_object();
        if (event.layer >= 0) json.key("layer").value(event.layer);
        if (event.micro_batch >= 0) json.key("micro_batch").value(event.micro_batch);
        if (event.bytes > 0.0) json.key("bytes").value(event.bytes);
        if (event.flops > 0.0) json.key("flops").value(event.flops);
        json.end_object();
        json.end_object();
        if (++written % events_per_piece == 0) json.drain(out);
    }
    for (std::size_t d = 0; d < devices.size(); ++d) {
        for (const MemorySample& sample : timeline.memory(d)) {
            json.begin_object();
            json.key("name").value("memory");
            json.key("ph").value("C");
            json.key("pid").value(devices[d].npu);
            json.key("ts").value(sample.time_s * microseconds);
            json.key("args").begin_object().key("GiB").value(sample.bytes / (1024.0 * 1024.0 * 1024.0)).end_object();
            json.end_object();
            if (++written % events_per_piece == 0) json.drain(out);
        }
    }
    json.end_array();
    json.end_object();
    json.drain(out);
    out << '\n';
}

}  // namespace parasight
