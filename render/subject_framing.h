// The default view of a scene: the subject's bounding box from the plain-data draw list and the
// orbit camera placed so that the whole box is in view (planar subjects seen face-on). GL-free, so
// the app (scene switch, reset, view resize, "reset view") and headless callers frame alike.
#pragma once
#include <glm/glm.hpp>

#include "render/camera.h"
#include "render/draw_list.h"

struct SubjectBounds {
  glm::vec3 lo{0.0f}, hi{0.0f};
  bool valid = false;  // false when the list holds nothing to frame
};

// Bounds of the subject: every shape (by its bounding sphere) and line point; triangle meshes (water,
// terrain) are surroundings and left out. A follow scene's subject is the vehicle: only shapes within
// half the hint's distance of the hint's target count, so arena walls do not shrink it to a speck and
// its trail does not count.
// The hint's reach box (where the subject will move) counts as part of the subject.
SubjectBounds subjectBounds(const varsim::DrawList& list);

// Points `camera` at the subject's centre from a distance that keeps its bounding sphere inside a
// view of this aspect (width / height) with a margin. Angles: the scene's hint when it sets them,
// else face-on for a subject flat in x or y, else the default three-quarter view. Follow mode as
// hinted, around the hint's target (the vehicle), at the distance its bounds need.
void frameSubject(OrbitCamera& camera, const varsim::DrawList& list, float aspect);
