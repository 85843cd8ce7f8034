#include "document/peer_import_files.h"

#include "interop/calculon_files.h"
#include "io/bounded_file.h"

#include <QDir>

#include <string>

namespace parasight::gui {
namespace {

void add_problem(Diagnostics& problems, std::string file, std::string message) {
    Diagnostic said;
    said.location.file = std::move(file);
    said.message = std::move(message);
    problems.push_back(std::move(said));
}

std::string shown_name(const QString& path) { return QDir::toNativeSeparators(path).toStdString(); }

std::optional<PeerFile> read_picked(const QString& path, std::string_view what, Diagnostics& problems) {
    auto text = read_bounded_file(path.toStdString(), max_input_file_bytes, what);
    if (!text) {
        add_problem(problems, shown_name(path), text.error());
        return std::nullopt;
    }
    return PeerFile{shown_name(path), std::move(text).value()};
}

}  // namespace

PickedAstraSimFiles pick_astra_sim_files(const QStringList& paths) {
    PickedAstraSimFiles picked;
    for (const QString& path : paths) {
        const bool is_system = path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive);
        std::optional<PeerFile>& file = is_system ? picked.system : picked.network;
        if (file) {
            add_problem(picked.problems, shown_name(path),
                        is_system ? "a second system file: choose one, ending .json"
                                  : "a second network file: choose one, and its system file (.json)");
            continue;
        }
        file = read_picked(path, is_system ? "an ASTRA-sim system file" : "an ASTRA-sim network file", picked.problems);
    }
    if (!picked.network && picked.problems.empty()) {
        add_problem(picked.problems, {}, "choose ASTRA-sim's network file (.yml), with its system file (.json)");
    }
    return picked;
}

PickedCalculonFiles pick_calculon_files(const QStringList& paths) {
    PickedCalculonFiles picked;
    for (const QString& path : paths) {
        auto file = read_picked(path, "a Calculon file", picked.problems);
        if (!file) continue;
        const auto kind = calculon_file_kind(file->text);
        if (!kind) {
            add_problem(picked.problems, file->name,
                        "not one of Calculon's files: a system names networks, a model its hidden size, an "
                        "execution num_procs");
            continue;
        }
        std::optional<PeerFile>& slot = *kind == CalculonFileKind::system ? picked.system
                                        : *kind == CalculonFileKind::model ? picked.model
                                                                            : picked.execution;
        if (slot) {
            add_problem(picked.problems, file->name, "a second " + std::string(*kind == CalculonFileKind::system ? "system"
                                                                               : *kind == CalculonFileKind::model ? "model"
                                                                                                                  : "execution") +
                                                          " file: choose one of each");
            continue;
        }
        slot = std::move(file);
    }
    if (picked.problems.empty() && (!picked.system || !picked.model || !picked.execution)) {
        add_problem(picked.problems, {}, "choose Calculon's three files: a system, a model and an execution");
    }
    return picked;
}

}  // namespace parasight::gui
