#pragma once
// Which results database (docs/store.md) the window's Sweeps and History tabs read and its runs are kept in: one
// chosen by the user, else the default one parasight-cli sweep fills; and the dialog that chooses another.

#include "store/result_store.h"

#include <QString>

#include <string>

class QWidget;

namespace parasight::gui {

// `chosen`, or when it is empty the default database's path (empty when neither XDG_DATA_HOME nor HOME says where).
[[nodiscard]] QString results_database_path(const QString& chosen);
// The path as a person reads it: the home folder written ~ ("~/.local/share/parasight/results.db").
[[nodiscard]] QString results_database_display(const QString& path);
// Opens the database for reading, on a worker: waiting up to 5 s while another connection holds it (a reader opening
// at the same moment, a writer checkpointing), rather than failing at once.
[[nodiscard]] Expected<ResultStore> open_results_for_reading(const std::string& path);
// Asks for a database to open, starting in `current`'s folder; empty when the user cancels.
[[nodiscard]] QString ask_for_results_database(QWidget* parent, const QString& current);

}  // namespace parasight::gui
