// Scene.save()/load() bytes: what the app's history ring keeps per entry (ui/core/history_ring.h: the settings in
// force — running parameter values, values waiting for a rebuild, scene edits — and the full saved state), plus
// what the headless run adds (RunSession::saveState: step count, CSV row, energy monitor) and the controls. Loading
// restores the settings first, then the state (as SimDriver::restoreEntry does), so a resumed run is bit-identical.
#pragma once
#include <string>

#include "engine/sim/system.h"
#include "scenes/run_session.h"

namespace varsim::python {

std::string saveSnapshot(const RunSession& run, const InputVector& inputs);
// Restores `blob` into `run` and returns the controls it held. BadInput (nothing changed) when the blob is not a
// snapshot, is of another scene, or was taken with another value of a key that only a rebuild changes.
InputVector loadSnapshot(RunSession& run, const std::string& blob, size_t controls);

}  // namespace varsim::python
