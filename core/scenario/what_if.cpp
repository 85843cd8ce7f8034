#include "scenario/what_if.h"

#include "common/index_range_text.h"
#include "common/message_text.h"
#include "scenario/scenario_limits.h"

namespace parasight {

const std::array<EnumName<CommOperation>, 5> comm_operation_names{{{CommOperation::all_reduce, "all-reduce"},
                                                                   {CommOperation::reduce_scatter, "reduce-scatter"},
                                                                   {CommOperation::all_gather, "all-gather"},
                                                                   {CommOperation::all_to_all, "all-to-all"},
                                                                   {CommOperation::send, "send"}}};

std::string what_if_rule_path(std::string_view list, std::size_t index) {
    return "what_if." + std::string(list) + "[" + std::to_string(index) + "]";
}

Expected<LayerRange> parse_layer_range(std::string_view text) {
    const auto layers = parse_index_range(text);
    const auto range = limits::what_if_layer;
    if (!layers || layers->first < range.min || layers->second > range.max || layers->first > layers->second) {
        return Error{in_quotes(text) + " is not a layer or a range of layers first..last, from 0 to " +
                     std::to_string(range.max)};
    }
    return LayerRange{static_cast<int>(layers->first), static_cast<int>(layers->second)};
}

std::string delay_rule_words(const CollectiveDelay& rule) {
    std::string words = "every ";
    if (rule.group) words += std::string(to_string(*rule.group)) + " ";
    words += rule.operation ? std::string(name_of(*rule.operation, comm_operation_names)) : "communication";
    if (rule.layers) {
        words += (rule.layers->first == rule.layers->last ? " in layer " : " in layers ") +
                 index_range_text(rule.layers->first, rule.layers->last);
    }
    return words;
}

}  // namespace parasight
