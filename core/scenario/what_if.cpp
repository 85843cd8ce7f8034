#include "scenario/what_if.h"

namespace parasight {

const std::array<EnumName<CommOperation>, 5> comm_operation_names{{{CommOperation::all_reduce, "all-reduce"},
                                                                   {CommOperation::reduce_scatter, "reduce-scatter"},
                                                                   {CommOperation::all_gather, "all-gather"},
                                                                   {CommOperation::all_to_all, "all-to-all"},
                                                                   {CommOperation::send, "send"}}};

}  // namespace parasight
