#include "common/task_kind.h"

namespace parasight {

const std::array<EnumName<Stream>, stream_count> stream_names{{{Stream::compute, "compute"},
                                                              {Stream::feature_comm, "feature communication"},
                                                              {Stream::gradient_comm, "gradient communication"},
                                                              {Stream::memory_in, "memory in"},
                                                              {Stream::memory_out, "memory out"}}};

const std::array<EnumName<TaskKind>, task_kind_count> task_kind_names{{{TaskKind::forward, "forward"},
                                                          {TaskKind::backward, "backward"},
                                                          {TaskKind::weight_gradient, "weight_gradient"},
                                                          {TaskKind::recompute, "recompute"},
                                                          {TaskKind::optimizer, "optimizer"},
                                                          {TaskKind::tp_comm, "tp"},
                                                          {TaskKind::cp_comm, "cp"},
                                                          {TaskKind::ep_comm, "ep"},
                                                          {TaskKind::pp_comm, "pp"},
                                                          {TaskKind::dp_comm, "dp"},
                                                          {TaskKind::injected_delay, "delay"},
                                                          {TaskKind::memory_load, "memory_load"},
                                                          {TaskKind::memory_store, "memory_store"},
                                                          {TaskKind::host_optimizer, "host_optimizer"}}};

}  // namespace parasight
