#include "target/target.h"

#include "analysis/breakdown.h"
#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "common/number_text.h"
#include "oracle/paradl_oracle.h"
#include "common/memory_category.h"
#include "strategy/node_path.h"
#include "units/quantity.h"

#include <vector>

namespace parasight {
namespace {

constexpr std::array<std::string_view, 9> tabs{"topology", "strategy", "timeline", "breakdown", "memory",
                                               "oracle",   "whatif",   "sweeps",   "history"};
constexpr std::array<std::string_view, 3> device_views{"timeline", "breakdown", "memory"};

template <class Names>
std::vector<std::string_view> list(const Names& names) {
    std::vector<std::string_view> listed;
    for (const auto& name : names) {
        if constexpr (std::is_convertible_v<decltype(name), std::string_view>) {
            listed.emplace_back(name);
        } else {
            listed.push_back(name.name);
        }
    }
    return listed;
}

// `name` when it is one of `names`; otherwise why not, naming `what` and the choices.
template <class Names>
Expected<std::string> one_of(std::string_view name, const Names& names, std::string_view what) {
    const std::vector<std::string_view> choices = list(names);
    for (const std::string_view choice : choices) {
        if (choice == name) return std::string(name);
    }
    return Error{"unknown " + std::string(what) + " " + in_quotes(name) + did_you_mean_suffix(name, choices) +
                 "; it is " + join_alternatives(choices)};
}

Expected<std::int64_t> npu_of(std::string_view text) {
    const auto npu = parse_integer(text);
    if (!npu || *npu < 0) return Error{"an NPU is a whole number from 0, not " + in_quotes(text)};
    return static_cast<std::int64_t>(*npu);
}

// "NAME@REST" split at its last '@'; the error names what the part after it is.
Expected<std::pair<std::string_view, std::string_view>> split_at(std::string_view text, std::string_view after) {
    const std::size_t at = text.rfind('@');
    if (at == std::string_view::npos) {
        const std::string example = after == "the NPU"        ? "group:tp@5"
                                    : after == "the PE count" ? "oracle:data+filter@64"
                                                              : "device:5@timeline";
        return Error{"write " + std::string(after) + " after '@', as in " + example};
    }
    return std::pair{text.substr(0, at), text.substr(at + 1)};
}

}  // namespace

std::span<const std::string_view> target_tab_names() noexcept { return tabs; }
std::span<const std::string_view> device_row_views() noexcept { return device_views; }

Expected<Target> parse_target(std::string_view text) {
    const std::size_t colon = text.find(':');
    const std::vector<std::string_view> kinds = list(target_kind_names);
    if (colon == std::string_view::npos) {
        return Error{"a target is written KIND:WHAT (tab:timeline, field:training.global_batch, npu:5, …), not " +
                     in_quotes(text)};
    }
    const std::string_view kind_text = text.substr(0, colon);
    const std::string_view what = text.substr(colon + 1);
    const std::optional<TargetKind> kind = value_of(kind_text, target_kind_names);
    if (!kind) {
        return Error{"unknown kind of target " + in_quotes(kind_text) + did_you_mean_suffix(kind_text, kinds) +
                     "; it is " + join_alternatives(kinds)};
    }
    if (what.empty()) return Error{"say which " + std::string(kind_text) + " after '" + std::string(kind_text) + ":'"};
    Target target;
    target.kind = *kind;
    switch (*kind) {
        case TargetKind::tab: {
            Expected<std::string> name = one_of(what, tabs, "tab");
            if (!name) return Error{name.error()};
            target.name = name.value();
            break;
        }
        case TargetKind::field:
        case TargetKind::events: target.name = std::string(what); break;
        case TargetKind::strategy_node:
            if (!parse_node_path(what)) {
                return Error{in_quotes(what) + " is not a strategy-tree node: write stage[i], layer[j], layer[j].attention, "
                                               "layer[j].mlp or an operation such as layer[j].attention.qkv"};
            }
            target.name = std::string(what);
            break;
        case TargetKind::npu: {
            Expected<std::int64_t> npu = npu_of(what);
            if (!npu) return Error{npu.error()};
            target.npu = npu.value();
            break;
        }
        case TargetKind::group:
        case TargetKind::device: {
            const bool group = *kind == TargetKind::group;
            const auto parts = split_at(what, group ? "the NPU" : "the view");
            if (!parts) return Error{parts.error()};
            const auto [first, second] = parts.value();
            Expected<std::string> name = group ? one_of(first, comm_group_names, "group")
                                               : one_of(second, device_views, "view with a row per device");
            if (!name) return Error{name.error()};
            Expected<std::int64_t> npu = npu_of(group ? second : first);
            if (!npu) return Error{npu.error()};
            target.name = name.value();
            target.npu = npu.value();
            break;
        }
        case TargetKind::time_range: {
            const std::size_t dots = what.find("..");
            if (dots == std::string_view::npos) return Error{"a stretch of time is written FROM..TO, as in 1 ms..2.5 ms"};
            const Expected<double> from = units::parse_quantity(what.substr(0, dots), units::Dimension::time);
            if (!from) return Error{"from: " + from.error()};
            const Expected<double> to = units::parse_quantity(what.substr(dots + 2), units::Dimension::time);
            if (!to) return Error{"to: " + to.error()};
            if (!(to.value() > from.value())) return Error{"a stretch of time ends after it starts"};
            target.from_s = from.value();
            target.to_s = to.value();
            break;
        }
        case TargetKind::memory_category: {
            Expected<std::string> name = one_of(what, memory_category_names, "memory category");
            if (!name) return Error{name.error()};
            target.name = name.value();
            break;
        }
        case TargetKind::oracle_strategy: {
            const auto parts = split_at(what, "the PE count");
            if (!parts) return Error{parts.error()};
            Expected<std::string> name = one_of(parts.value().first, oracle_strategy_names, "oracle strategy");
            if (!name) return Error{name.error()};
            const auto pes = parse_integer(parts.value().second);
            if (!pes || *pes < 1) {
                return Error{"a PE count is a whole number from 1, not " + in_quotes(parts.value().second)};
            }
            target.name = name.value();
            target.pes = static_cast<std::int64_t>(*pes);
            break;
        }
    }
    return target;
}

std::string target_text(const Target& target) {
    std::string text = std::string(name_of(target.kind, target_kind_names)) + ":";
    switch (target.kind) {
        case TargetKind::npu: return text + std::to_string(target.npu);
        case TargetKind::group: return text + target.name + "@" + std::to_string(target.npu);
        case TargetKind::device: return text + std::to_string(target.npu) + "@" + target.name;
        case TargetKind::oracle_strategy: return text + target.name + "@" + std::to_string(target.pes);
        case TargetKind::time_range:
            return text + units::format_quantity(target.from_s, units::Dimension::time) + ".." +
                   units::format_quantity(target.to_s, units::Dimension::time);
        default: return text + target.name;
    }
}

}  // namespace parasight
