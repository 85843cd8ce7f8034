#include "lesson/lesson_number.h"

#include <cmath>
#include <cstdio>

namespace parasight {

std::string lesson_number_text(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", value);
    return text;
}

std::string lesson_answer_text(double value) {
    char text[64];
    if (std::abs(value) < 1.0 && value != 0.0) {
        std::snprintf(text, sizeof text, "%.3g (%.3g%%)", value, 100.0 * value);
    } else {
        std::snprintf(text, sizeof text, "%.3g", value);
    }
    return text;
}

}  // namespace parasight
