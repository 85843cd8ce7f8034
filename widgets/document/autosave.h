#pragma once
// Crash safety for the document: while it has unsaved changes, its scenario is written to the user's data folder a
// few seconds after each change (atomically), so that a crash loses at most those seconds. A clean exit, a save or
// an undo back to the saved state removes the copy. Each session holds a lock file beside its copy; a copy whose
// lock no running ParaSight holds was left by a session that crashed, and the next start offers to recover it.
//
// The copy is a scenario file (YAML, as Save writes it, paths absolute) whose first line names the file it is a
// copy of: `# ParaSight autosave of: <percent-encoded path>` (empty for an untitled scenario).

#include "diagnostics/diagnostic.h"
#include "scenario/scenario.h"

#include <QDateTime>
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

namespace parasight::gui {

class ScenarioDocument;

// A copy that a crashed session left, locked by this session while it is being recovered or discarded.
class LeftAutosave {
public:
    LeftAutosave(QString path, std::unique_ptr<QLockFile> lock);

    [[nodiscard]] const QString& path() const noexcept { return path_; }
    // The scenario file it was a copy of; empty for an untitled scenario.
    [[nodiscard]] QString originalPath() const;
    [[nodiscard]] QDateTime savedAt() const;
    // The scenario as it was, valid or not; nothing, with the reason in `problems`, if the copy cannot be read.
    [[nodiscard]] std::optional<Scenario> read(Diagnostics& problems) const;
    // The sweep section the copy carries (the document's file had one), as YAML; empty when none.
    [[nodiscard]] std::string sweepSection() const;
    // Deletes the copy and its lock: recovered or discarded, it is not offered again.
    void remove();

private:
    QString path_;
    std::unique_ptr<QLockFile> lock_;
};

class Autosave : public QObject {
    Q_OBJECT

public:
    static constexpr int delay_ms = 3000;  // after the last change

    // `folder`: where copies are kept, created if missing (default_folder() in the application).
    Autosave(ScenarioDocument& document, QString folder, QObject* parent = nullptr);
    ~Autosave() override;  // a clean exit: the copy is removed

    [[nodiscard]] static QString default_folder();
    // The copies in `folder` that crashed sessions left, newest first, each now locked by the caller.
    [[nodiscard]] static std::vector<LeftAutosave> left_in(const QString& folder);

    [[nodiscard]] const QString& path() const noexcept { return path_; }
    // Writes the copy now, if there are unsaved changes (else removes it); what the timer does.
    void writeNow();
    // The reason the last write failed (a full disk, a folder that cannot be made), or empty.
    [[nodiscard]] const QString& error() const noexcept { return error_; }

Q_SIGNALS:
    void failed(const QString& reason);

private:
    void removeCopy();

    ScenarioDocument& document_;
    QString folder_;
    QString path_;
    QLockFile lock_;
    QTimer timer_;
    QString error_;
};

}  // namespace parasight::gui
