#include "store/warning_codes_migration.h"

#include "common/message_text.h"
#include "store/run_warnings.h"
#include "store/warning_sentences.h"

#include <cstdint>
#include <vector>

namespace parasight::store {
namespace {

struct Sentence {
    std::int64_t run_id = 0;
    std::int64_t position = 0;
    std::string text;
};

Expected<std::vector<Sentence>> sentences(Database& database, const std::string& sql) {
    Expected<Statement> select = database.prepare(sql);
    if (!select) return Error{select.error()};
    std::vector<Sentence> found;
    const auto problem = select.value().each_row(
        [&](const Statement& row) { found.push_back({row.integer(0), row.integer(1), row.text(2)}); });
    if (problem) return Error{*problem};
    return found;
}

std::optional<std::string> convert(Database& database, const std::vector<Sentence>& found, std::string_view role) {
    for (const Sentence& sentence : found) {
        const std::optional<Warning> warning = warning_from_sentence(sentence.text);
        if (!warning) {
            return "run " + std::to_string(sentence.run_id) + " holds " + std::string(role == "reason" ? "a reason" : "a warning") +
                   " this version does not recognise, so it cannot be converted: " + in_quotes(sentence.text);
        }
        if (auto problem = insert_run_warning(database, sentence.run_id, role, sentence.position, *warning)) {
            return problem;
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> convert_warning_sentences(Database& database) {
    // json_each walks each run's array in order; its key is the warning's place.
    const auto warnings = sentences(database, "SELECT r.id, j.key, j.value FROM runs r, json_each(r.warnings) j "
                                              "ORDER BY r.id, j.key");
    if (!warnings) return warnings.error();
    if (auto problem = convert(database, warnings.value(), "warning")) return problem;
    const auto reasons = sentences(database, "SELECT id, 0, reason FROM runs WHERE status IN ('oom', 'oom_estimated') "
                                             "AND reason IS NOT NULL ORDER BY id");
    if (!reasons) return reasons.error();
    if (auto problem = convert(database, reasons.value(), "reason")) return problem;
    return database.execute("UPDATE runs SET reason = NULL WHERE status IN ('oom', 'oom_estimated')");
}

}  // namespace parasight::store
