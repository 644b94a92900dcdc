// The one path for a live edit of a running scene: a parameter change or a Scene::applyEdit, typed
// in the app, replayed by its SimDriver or applied by the headless runner from an input file's
// events. Keeping a single copy is what makes a live run, its app replay and `varsim run --input`
// bit-identical.
#pragma once
#include <string>

#include "engine/sim/input_track.h"
#include "engine/sim/param.h"
#include "scenes/scene.h"

namespace varsim {

enum class EditTiming { Live, OnReset };

// Validates key/value against the scene's specs and cross-parameter checks (BadInput naming key,
// value and range; nothing changes). A `live` key reaches the running scene at once through
// applyLive (state kept; restored if the scene refuses); the others only change `edited` (the
// parameters the next rebuild uses) and return OnReset.
EditTiming applyParamEdit(Scene& scene, const std::string& sceneName, ParamSet& edited, const std::string& key,
                          const ParamValue& value);

// Applies a recorded Param or Edit event (a Reset rebuilds the scene, which is the caller's job:
// this throws for it). Messages start with the event's file:line when it came from a file.
EditTiming applyInputEvent(Scene& scene, const std::string& sceneName, ParamSet& edited, const InputEvent& event);

}  // namespace varsim
