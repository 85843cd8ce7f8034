#pragma once
// A Warning as the English sentence the report JSON and the command line print: the words are made here, at the
// edge, so that views read the code, subject and numbers instead (common/warning.h).

#include "common/warning.h"

#include <string>

namespace parasight {

[[nodiscard]] std::string warning_text(const Warning& warning);

}  // namespace parasight
