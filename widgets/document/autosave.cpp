#include "document/autosave.h"

#include "document/scenario_document.h"
#include "io/atomic_output.h"
#include "io/bounded_file.h"
#include "scenario_file/scenario_loader.h"
#include "scenario_file/scenario_writer.h"
#include "scenario_file/sweep_section.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QUrl>
#include <QUuid>

namespace parasight::gui {

namespace {

const QByteArray header_prefix = QByteArrayLiteral("# ParaSight autosave of: ");

QString lock_path_of(const QString& copy) {
    return QFileInfo(copy).dir().filePath(QFileInfo(copy).completeBaseName() + QStringLiteral(".lock"));
}

// Holds its lock as long as its process lives: only a dead process's lock is taken over (no age limit).
std::unique_ptr<QLockFile> make_lock(const QString& copy) {
    auto lock = std::make_unique<QLockFile>(lock_path_of(copy));
    lock->setStaleLockTime(0);
    return lock;
}

}  // namespace

LeftAutosave::LeftAutosave(QString path, std::unique_ptr<QLockFile> lock)
    : path_(std::move(path)), lock_(std::move(lock)) {}

QString LeftAutosave::originalPath() const {
    QFile file(path_);
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QByteArray first = file.readLine(64 * 1024).trimmed();
    if (!first.startsWith(header_prefix)) return {};
    return QUrl::fromPercentEncoding(first.mid(header_prefix.size()));
}

QDateTime LeftAutosave::savedAt() const { return QFileInfo(path_).lastModified(); }

std::optional<Scenario> LeftAutosave::read(Diagnostics& problems) const {
    const auto text = read_bounded_file(path_.toStdString(), max_input_file_bytes, "an autosaved scenario");
    if (!text) {
        problems.push_back(Diagnostic{SourceLocation{path_.toStdString(), 0, 0}, text.error(), {}});
        return std::nullopt;
    }
    ReadResult read = read_scenario_text(text.value(), path_.toStdString());
    problems = std::move(read.diagnostics);
    return read.scenario;
}

std::string LeftAutosave::sweepSection() const { return read_sweep_section_file(path_.toStdString()).yaml; }

void LeftAutosave::remove() {
    QFile::remove(path_);
    if (lock_) lock_->unlock();  // removes the lock file
}

Autosave::Autosave(ScenarioDocument& document, QString folder, QObject* parent)
    : QObject(parent),
      document_(document),
      folder_(std::move(folder)),
      path_(QDir(folder_).filePath(QUuid::createUuid().toString(QUuid::WithoutBraces) + QStringLiteral(".yaml"))),
      lock_(lock_path_of(path_)) {
    lock_.setStaleLockTime(0);
    timer_.setSingleShot(true);
    timer_.setInterval(delay_ms);
    connect(&timer_, &QTimer::timeout, this, &Autosave::writeNow);
    connect(&document_, &ScenarioDocument::scenarioChanged, this, [this] {
        if (document_.isModified()) timer_.start();
    });
    connect(&document_, &ScenarioDocument::filePathChanged, this, [this] {
        if (document_.isModified()) timer_.start();  // the copy names the file it belongs to
    });
    connect(&document_, &ScenarioDocument::modifiedChanged, this, [this](bool modified) {
        // The first edit after a save changes the value before the undo stack counts it as a change: it is this
        // signal, not scenarioChanged, that says there is something to lose.
        if (modified) {
            timer_.start();
            return;
        }
        timer_.stop();  // saved, or undone back to the saved state: nothing to lose
        removeCopy();
    });
}

Autosave::~Autosave() { removeCopy(); }

QString Autosave::default_folder() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("autosave"));
}

std::vector<LeftAutosave> Autosave::left_in(const QString& folder) {
    std::vector<LeftAutosave> left;
    const QDir directory(folder);
    const QFileInfoList copies =
        directory.entryInfoList({QStringLiteral("*.yaml")}, QDir::Files | QDir::Hidden, QDir::Time);  // newest first
    for (const QFileInfo& copy : copies) {
        std::unique_ptr<QLockFile> lock = make_lock(copy.filePath());
        if (!lock->tryLock(0)) continue;  // its session is running (this one, or another window)
        left.emplace_back(copy.filePath(), std::move(lock));
    }
    return left;
}

void Autosave::writeNow() {
    timer_.stop();
    if (!document_.isModified()) {
        removeCopy();
        return;
    }
    if (!lock_.isLocked()) {
        if (!QDir().mkpath(folder_)) {
            error_ = tr("cannot make the folder %1").arg(folder_);
            Q_EMIT failed(error_);
            return;
        }
        if (!lock_.tryLock(0)) {
            error_ = tr("cannot lock %1").arg(lock_path_of(path_));
            Q_EMIT failed(error_);
            return;
        }
    }
    auto output = AtomicOutput::open(path_.toStdString());
    std::optional<std::string> problem;
    if (!output) {
        problem = output.error();
    } else {
        (*output)->stream() << header_prefix.constData() << QUrl::toPercentEncoding(document_.filePath()).constData()
                            << "\n"
                            << write_scenario_yaml(document_.scenario()) << document_.sweepSection();
        problem = (*output)->commit();
    }
    error_ = problem ? QString::fromStdString(*problem) : QString();
    if (problem) Q_EMIT failed(error_);
}

void Autosave::removeCopy() {
    if (!lock_.isLocked()) return;  // nothing written
    QFile::remove(path_);
    lock_.unlock();
}

}  // namespace parasight::gui
