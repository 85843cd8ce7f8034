#pragma once
// The question a start after a crash asks about each autosaved copy left behind (document/autosave.h): what it is a
// copy of, when it was saved, where Save will write it once recovered, with Recover, Discard and Ask Later. Only an
// explicit Discard deletes the copy; closing the question keeps it for the next start.

#include "document/autosave.h"

class QWidget;

namespace parasight::gui {

enum class RecoveryAnswer { recover, discard, later };

[[nodiscard]] RecoveryAnswer ask_about_recovery(const LeftAutosave& left, QWidget* parent);

}  // namespace parasight::gui
