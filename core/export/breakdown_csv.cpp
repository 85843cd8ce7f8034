#include "export/breakdown_csv.h"

#include "units/quantity.h"

namespace parasight {

// Numbers become text here, not in the stream, whose locale may write 1024 as "1.024". Every device's iteration is the
// iteration (its parts sum to it but for rounding: a device idles until the slowest ends).
void write_breakdown_csv(std::ostream& out, const Report& report) {
    out << "npu,stage,stands_for,compute_s,exposed_local_memory_s";
    for (const auto& group : comm_group_names) out << ",exposed_" << group.name << "_s";
    out << ",exposed_remote_memory_s,bubble_s,idle_s,iteration_s,peak_memory_bytes\n";
    for (const DeviceReport& device : report.per_device) {
        const TimeBreakdown& b = device.breakdown;
        out << std::to_string(device.npu) << ',' << std::to_string(device.stage) << ','
            << units::format_number(device.weight) << ',' << units::format_number(b.compute_s) << ','
            << units::format_number(b.exposed_local_memory_s);
        for (const double value : b.exposed_comm_s) out << ',' << units::format_number(value);
        out << ',' << units::format_number(b.exposed_remote_memory_s) << ',' << units::format_number(b.bubble_s) << ','
            << units::format_number(b.idle_s) << ',' << units::format_number(report.iteration_time_s) << ','
            << units::format_number(device.peak_memory_bytes) << '\n';
    }
}

}  // namespace parasight
