#include "lesson/lesson_number.h"

#include <cstdio>

namespace parasight {

std::string lesson_number_text(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", value);
    return text;
}

}  // namespace parasight
