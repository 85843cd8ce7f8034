#include "scenario/what_if.h"

#include "common/index_range_text.h"

namespace parasight {

const std::array<EnumName<CommOperation>, 5> comm_operation_names{{{CommOperation::all_reduce, "all-reduce"},
                                                                   {CommOperation::reduce_scatter, "reduce-scatter"},
                                                                   {CommOperation::all_gather, "all-gather"},
                                                                   {CommOperation::all_to_all, "all-to-all"},
                                                                   {CommOperation::send, "send"}}};

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
