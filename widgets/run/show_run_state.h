#pragma once
// How a view that draws a whole result — or says why there is none — follows the run session (run/run_session.h):
// a new result drawn, greyed while stale; a failure said in its place; while the scenario has problems the last
// result stays, greyed, so that fixing them does not lose one's place. The view has showResult(result),
// showMessage(text) and is a QWidget; `shown` is the result it draws now (none: null).

#include "run/run_session.h"

namespace parasight::gui {

template <class View>
void show_run_state(View& view, const RunState& state, const SimulationResult* shown) {
    switch (state.kind) {
        case RunState::Kind::none: return;
        case RunState::Kind::result:
            if (state.result.get() != shown) view.showResult(state.result);
            view.setEnabled(!state.stale);
            return;
        case RunState::Kind::failure:
            view.showMessage(state.message);
            view.setEnabled(true);  // a failure is news about the scenario being edited
            return;
        case RunState::Kind::not_simulated: view.setEnabled(false); return;
    }
}

}  // namespace parasight::gui
