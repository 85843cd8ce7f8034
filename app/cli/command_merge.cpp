#include "commands.h"

#include "cli_arguments.h"
#include "path_checks.h"
#include "common/message_text.h"
#include "store/result_store.h"

#include <ostream>

namespace parasight::cli {

const std::string_view merge_help = R"(usage: parasight-cli merge OUT.db IN.db [IN.db ...]

Adds to results database OUT.db (made when missing) what each IN.db holds and OUT.db does not: scenarios, sweeps
(a sweep run in shards is one sweep: its shards share its key), their points with their runs, and runs outside any
sweep. Each IN.db is only read. Merging the same database twice adds nothing, so a merge can be run again after a
shard is re-run.

Every IN.db is checked before OUT.db is made or changed, and OUT.db must not be an IN.db or one of its companion
files (-wal, -shm, -journal).

exit status: 0 ok; 2 bad input (fewer than two databases named, OUT.db an input); 1 a database that cannot be
merged (not a ParaSight results database, damaged, newer, locked) or an internal error — OUT.db keeps every input
merged before it, each whole
)";

int run_merge(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
    const auto arguments = Arguments::parse(words, OptionSpec{});
    if (!arguments) return usage_error(err, "merge", arguments.error());
    const std::vector<std::string>& files = arguments->positional();
    if (files.size() < 2) return usage_error(err, "merge", "name the output database and at least one input");
    std::vector<CommandFile> inputs;
    for (std::size_t i = 1; i < files.size(); ++i) inputs.push_back({"the input database", files[i], true});
    if (const auto refused = refuse_path_clash(err, "merge", {{"the output database", files.front(), true}}, inputs)) {
        return *refused;
    }
    // Every input is checked before the output is made or changed: a damaged shard leaves no empty OUT.db behind.
    for (std::size_t i = 1; i < files.size(); ++i) {
        if (auto problem = ResultStore::check_mergeable(files[i])) {
            err << "parasight-cli merge: " << quoted_path(files[i]) << " " << *problem << '\n';
            return exit_internal_error;
        }
    }
    Expected<ResultStore> store = ResultStore::open(files.front(), ResultStore::Access::read_write);
    if (!store) {
        err << "parasight-cli merge: " << quoted_path(files.front()) << " " << store.error() << '\n';
        return exit_internal_error;
    }
    for (std::size_t i = 1; i < files.size(); ++i) {
        if (auto problem = store.value().merge_from(files[i])) {
            err << "parasight-cli merge: " << quoted_path(files[i]) << " " << *problem << '\n';
            return exit_internal_error;
        }
    }
    const Expected<std::vector<SweepSummary>> sweeps = store.value().sweeps();
    if (!sweeps) {
        err << "parasight-cli merge: " << quoted_path(files.front()) << " " << sweeps.error() << '\n';
        return exit_internal_error;
    }
    out << "merged " << count_phrase(static_cast<std::int64_t>(files.size() - 1), "database") << " into "
        << quoted_path(files.front()) << '\n';
    for (const SweepSummary& sweep : sweeps.value()) {
        out << "  sweep " << sweep.id << " " << in_quotes(sweep.name) << ": " << sweep.stored() << " of "
            << count_phrase(static_cast<std::int64_t>(sweep.point_count), "point") << '\n';
    }
    return exit_ok;
}

}  // namespace parasight::cli
