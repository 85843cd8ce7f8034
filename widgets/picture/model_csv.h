#pragma once
// A table as the window shows it — its header, then each row in the order shown (after a search or a sort), each
// cell's text with its unit — as CSV (RFC 4180, store/stored_rows_writer.h's quoting), written whole or not at all:
// the History tab's list and the comparison of two runs. Numbers for scripts come from `parasight-cli runs`.

#include <QString>

#include <optional>

class QAbstractItemModel;

namespace parasight::gui {

// The reason `path` could not be written, or nothing.
[[nodiscard]] std::optional<QString> export_model_csv(const QAbstractItemModel& model, const QString& path);

}  // namespace parasight::gui
