#include "sweep/point_result.h"

#include "export/warning_text.h"

namespace parasight {

std::string point_reason(const PointResult& point) {
    return point.cause ? warning_text(*point.cause) : point.reason;
}

}  // namespace parasight
