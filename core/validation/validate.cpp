#include "validation/validate.h"

#include "validation/checks.h"

namespace parasight {

Validation validate(Scenario scenario) {
    ProblemList problems;
    check_fields(scenario, problems);
    ModelSpec& model = scenario.model;
    if (model.kind == ModelKind::transformer) {
        if (model.kv_heads == 0) model.kv_heads = model.heads;
        if (model.ffn_hidden == 0) model.ffn_hidden = 4 * model.hidden;
    }
    // Values are compared with one another only once each is in range, so that no check divides by zero or
    // overflows on a value that is itself wrong.
    if (problems.count() == 0) check_cross_section(scenario, problems);
    Validation validation;
    validation.diagnostics = problems.take();
    if (validation.diagnostics.empty()) validation.scenario = ValidatedScenario(std::move(scenario));
    return validation;
}

}  // namespace parasight
