// A CNN stage's layers, one operation each way (ParaDL's layer parallelism).
#include "compile/graph_builder.h"

namespace parasight {

void GraphBuilder::emit_cnn_step(DeviceProgram& program, const StageContext& context, const PipelineStep& step) {
    const std::int32_t device = program.device;
    const int model_chunk = step.chunk * parallelism_.pp + context.stage;
    const auto [first_layer, layer_count] = tree_.chunk_layers(model_chunk);
    const bool model_first = model_chunk == 0;
    const bool model_last = model_chunk == parallelism_.pp * chunks_ - 1;
    const int mb = step.micro_batch;
    Step& record = (step.forward ? forward_steps_ : backward_steps_)[static_cast<std::size_t>(device)]
                                                                   [step_index(model_chunk, mb)];
    const TaskId first_task = static_cast<TaskId>(graph_.tasks.size());
    TaskId last = program.previous;
    const double eb = dtype_bytes(scenario_.training.dtype);
    if (step.forward) {
        for (int layer = first_layer; layer < first_layer + layer_count; ++layer) {
            const CnnLayerWork& work = cnn_layers_[static_cast<std::size_t>(layer)];
            last = tasks_.compute(device, TaskKind::forward, cnn_label(work.type, false), layer, mb,
                           compute_.kernel_time(work.operation.name, Pass::forward, work.operation.forward),
                           work.operation.forward.flops, last);
            graph_.tasks[static_cast<std::size_t>(last)].allocate_bytes = work.kept_activation_bytes;
        }
    } else {
        const bool reduce_now = parallelism_.zero >= 2 || mb == micro_batches_ - 1;
        for (int layer = first_layer + layer_count - 1; layer >= first_layer; --layer) {
            const CnnLayerWork& work = cnn_layers_[static_cast<std::size_t>(layer)];
            last = tasks_.compute(device, TaskKind::backward, cnn_label(work.type, true), layer, mb,
                           compute_.kernel_time(work.operation.name, Pass::backward, work.operation.backward),
                           work.operation.backward.flops, last);
            graph_.tasks[static_cast<std::size_t>(last)].release_bytes = work.kept_activation_bytes;
            if (reduce_now && work.parameters > 0.0) {
                program.bucket_bytes += work.parameters * gradient_bytes_;
                program.bucket_ready = last;
                if (bucket_full(program)) flush_bucket(program, mb);
            }
        }
        if (reduce_now) flush_bucket(program, mb);
    }
    record.first = first_task < static_cast<TaskId>(graph_.tasks.size()) ? first_task : -1;
    const bool sends = step.forward ? !model_last : !model_first;
    if (sends) {
        // The activation (forward) or its gradient (backward) at the stage boundary.
        const int boundary_layer = step.forward ? first_layer + layer_count - 1 : first_layer;
        const CnnLayerWork& work = cnn_layers_[static_cast<std::size_t>(boundary_layer)];
        const ActivationShape& shape = step.forward ? work.output : work.input;
        const double bytes = scenario_.training.micro_batch * static_cast<double>(shape.elements()) * eb;
        record.send = pipeline_send(device, step.forward, mb, bytes, last);
    }
    finish_step(program, record, step.forward, last);
}

const char* GraphBuilder::cnn_label(CnnLayerType type, bool backward) {
    switch (type) {
    case CnnLayerType::conv: return backward ? "conv backward" : "conv";
    case CnnLayerType::pool: return backward ? "pool backward" : "pool";
    case CnnLayerType::fc: return backward ? "fc backward" : "fc";
    }
    return "layer";
}

}  // namespace parasight
