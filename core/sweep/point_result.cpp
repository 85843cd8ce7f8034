#include "sweep/point_result.h"

#include "export/warning_text.h"

namespace parasight {

std::string point_reason(const PointResult& point) {
    return point.cause ? warning_text(*point.cause) : point.reason;
}

std::string_view point_status_label(PointStatus status) noexcept {
    switch (status) {
        case PointStatus::ok: return "fits";
        case PointStatus::oom: return "OOM";
        case PointStatus::oom_estimated: return "OOM (est.)";
        case PointStatus::invalid: return "invalid";
        case PointStatus::failed: return "failed";
    }
    return "failed";
}

}  // namespace parasight
