#pragma once
// Numbers as lessons write them: in messages four significant digits ("24.02", "0.254", "30"); an answer three, and
// as a percentage between −1 and 1 ("0.254 (25.4%)", "1.02").

#include <string>

namespace parasight {

[[nodiscard]] std::string lesson_number_text(double value);
[[nodiscard]] std::string lesson_answer_text(double value);

}  // namespace parasight
