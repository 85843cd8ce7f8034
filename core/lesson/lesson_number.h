#pragma once
// A number as a lesson's messages write it: four significant digits ("24.02", "0.254", "30").

#include <string>

namespace parasight {

[[nodiscard]] std::string lesson_number_text(double value);

}  // namespace parasight
