#include "export/memory_csv.h"

#include "units/quantity.h"

#include <string>

namespace parasight {

// Numbers become text here, not in the stream, whose locale may write 1024 as "1.024".
void write_memory_csv(std::ostream& out, const Report& report) {
    out << "npu,stage,stands_for";
    for (const auto& category : memory_category_names) out << ',' << category.name << "_bytes";
    out << ",peak_bytes,capacity_bytes\n";
    for (const DeviceReport& device : report.per_device) {
        out << std::to_string(device.npu) << ',' << std::to_string(device.stage) << ','
            << units::format_number(device.weight);
        for (const double bytes : device.memory_at_peak_bytes) out << ',' << units::format_number(bytes);
        out << ',' << units::format_number(device.peak_memory_bytes) << ','
            << units::format_number(report.memory_capacity_bytes) << '\n';
    }
}

}  // namespace parasight
