#pragma once
// Where to save a file, asked in a file dialog: the path chosen, ending in `suffix` (".yaml", ".png") when the name
// typed had none — a scenario saved as "plan" was a file the Open dialog's filter then hid — and confirmed when
// adding the suffix names a file that exists (the dialog asked about the name as typed). Empty when cancelled.

#include <QString>

class QWidget;

namespace parasight::gui {

[[nodiscard]] QString ask_save_path(QWidget* parent, const QString& title, const QString& start,
                                    const QString& filter, const QString& suffix);

}  // namespace parasight::gui
