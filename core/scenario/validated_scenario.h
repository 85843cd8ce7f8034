#pragma once
// A Scenario that has passed validate() (validation/validate.h), with its defaults filled in. Only validate() makes
// one, so whatever takes a ValidatedScenario — the strategy tree, the compiler, simulate() — can rely on every check
// having passed. It lives beside Scenario, at the bottom of the layers, so that those parts need not depend on the
// checks themselves.

#include "scenario/scenario.h"

namespace parasight {

struct Validation;
Validation validate(Scenario scenario);

// A scenario that passed validate(), with its defaults filled in. Immutable: to change it, edit a copy of value()
// and validate that.
class ValidatedScenario {
public:
    [[nodiscard]] const Scenario& value() const noexcept { return scenario_; }
    [[nodiscard]] const Scenario* operator->() const noexcept { return &scenario_; }

    friend bool operator==(const ValidatedScenario&, const ValidatedScenario&) = default;

private:
    explicit ValidatedScenario(Scenario scenario) : scenario_(std::move(scenario)) {}
    friend Validation validate(Scenario scenario);

    Scenario scenario_;
};

}  // namespace parasight
