#include "store/warning_sentences.h"

#include "common/number_text.h"
#include "units/quantity.h"

#include <regex>
#include <string>

namespace parasight::store {
namespace {

double number_in(const std::string& text, units::Dimension dimension) {
    const Expected<double> value = units::parse_quantity(text, dimension);
    return value ? value.value() : 0.0;
}
int whole(const std::string& text) { return static_cast<int>(parse_integer(text).value_or(0)); }
double size(const std::string& text) { return number_in(text, units::Dimension::size); }
double time(const std::string& text) { return number_in(text, units::Dimension::time); }

// One pattern per sentence of export/warning_text.cpp as version 2 wrote it; a quantity is "NUMBER UNIT". Compiled
// on first use: only a database older than version 3 needs them, and compiling all of them costs every process that
// links the store about 7.5 M instructions at start-up.
struct SentencePatterns {
    const std::regex in_flight_capped{R"(^(.+) keeps at most (\d+) micro-batch(?:es)? in flight, as the stage )"
                                      R"(before it does: a 1F1B stage cannot run further ahead than the stage that )"
                                      R"(feeds it$)"};
    const std::regex frees_nothing{R"(^recomputing (.+) frees no activation memory \((\d+) layers?, the first )"
                                   R"(layer\[(\d+)\]\): nothing it makes can be dropped while the operations that )"
                                   R"(use it are not recomputed; recompute them too, or leave this one out$)"};
    const std::regex out_of_memory{R"(^out of memory: (.+) needs (\S+ \S+) of its (\S+ \S+); the capacity is first )"
                                   R"(exceeded by the (.+) at (\S+ \S+)$)"};
    const std::regex cap_without_effect{R"(^(.+): max_ongoing_micro_batches (\d+) has no effect: the 1F1B )"
                                        R"(schedule keeps at most (\d+) there anyway; a cap only matters below that$)"};
    const std::regex implausible{R"(^one iteration takes \S+ years \((\S+ \S+)\): check the units of the link )"
                                 R"(bandwidths and measured operation times$)"};
    const std::regex matches_nothing{R"(^(.+) delays nothing: no communication of this run has its group, operation )"
                                     R"(and layers$)"};
    const std::regex memory_bound{R"(^stage (\d+) needs at least (\S+ \S+) \((\S+ \S+) of model states)"
                                  R"((?: and (\S+ \S+) of activations for (\d+) micro-batch(?:es)? in flight)?\), )"
                                  R"(more than the (\S+ \S+) of a device$)"};
    const std::regex npu_subject{R"(^NPU (\d+)$)"};
};

const SentencePatterns& patterns() {
    static const SentencePatterns compiled;
    return compiled;
}

}  // namespace

std::optional<Warning> warning_from_sentence(std::string_view sentence) {
    const std::string text(sentence);
    const SentencePatterns& pattern = patterns();
    std::smatch match;
    Warning warning;
    if (std::regex_match(text, match, pattern.in_flight_capped)) {
        warning.code = WarningCode::in_flight_capped;
        warning.subject = match[1];
        warning.micro_batches = whole(match[2]);
    } else if (std::regex_match(text, match, pattern.frees_nothing)) {
        warning.code = WarningCode::recomputation_frees_nothing;
        warning.operation = match[1];
        warning.layers = whole(match[2]);
        warning.first_layer = whole(match[3]);
        // The strategy-tree node the compiler names it by: the operation in its first layer.
        warning.subject = "layer[" + std::string(match[3]) + "]." + warning.operation;
    } else if (std::regex_match(text, match, pattern.out_of_memory)) {
        warning.code = WarningCode::out_of_memory;
        warning.subject = match[1];
        warning.needed_bytes = size(match[2]);
        warning.capacity_bytes = size(match[3]);
        warning.tensor = match[4];
        warning.time_s = time(match[5]);
        std::smatch npu;
        if (std::regex_match(warning.subject, npu, pattern.npu_subject)) warning.npu = whole(npu[1]);
    } else if (std::regex_match(text, match, pattern.cap_without_effect)) {
        warning.code = WarningCode::in_flight_cap_without_effect;
        warning.subject = match[1];
        warning.requested_micro_batches = whole(match[2]);
        warning.micro_batches = whole(match[3]);
    } else if (std::regex_match(text, match, pattern.implausible)) {
        warning.code = WarningCode::implausible_iteration_time;
        warning.time_s = time(match[1]);
    } else if (std::regex_match(text, match, pattern.matches_nothing)) {
        warning.code = WarningCode::what_if_matches_nothing;
        warning.subject = match[1];
    } else if (std::regex_match(text, match, pattern.memory_bound)) {
        warning.code = WarningCode::memory_bound_exceeded;
        warning.stage = whole(match[1]);
        warning.subject = "stage[" + std::string(match[1]) + "]";
        warning.needed_bytes = size(match[2]);
        warning.model_state_bytes = size(match[3]);
        if (match[4].matched) {
            warning.activation_bytes = size(match[4]);
            warning.micro_batches = whole(match[5]);
        }
        warning.capacity_bytes = size(match[6]);
    } else {
        return std::nullopt;
    }
    return warning;
}

}  // namespace parasight::store
