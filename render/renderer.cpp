// Renderer: per frame, uploads the draw list's instance buckets (instance_buckets.h) into one stream
// buffer and draws ground and grid, opaque shapes, meshes, drop shadows, sky, lines and finally the
// translucent items back to front. See renderer.h for the contract.
#include "render/renderer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include <glad/gl.h>

#include "render/gl_geometry.h"
#include "render/ground_grid.h"
#include "render/instance_buckets.h"
#include "render/shader_program.h"
#include "render/line_segments.h"
#include "render/offscreen_target.h"
#include "render/shape_instances.h"

using varsim::render::kLodCount;
using varsim::render::setUniform;

namespace {

// The look, in one place. Colours are sRGB except where a name says linear.
constexpr glm::vec3 kZenith{0.40f, 0.56f, 0.78f};
constexpr glm::vec3 kHorizon{0.86f, 0.89f, 0.93f};
constexpr glm::vec3 kGroundFar{0.80f, 0.82f, 0.84f};
constexpr glm::vec3 kGround{0.74f, 0.76f, 0.78f};
constexpr glm::vec3 kLightColorLinear{0.80f, 0.77f, 0.72f};
constexpr glm::vec3 kSkyAmbientLinear{0.30f, 0.34f, 0.40f};
constexpr glm::vec3 kGroundAmbientLinear{0.12f, 0.11f, 0.10f};
constexpr float kShadowAlpha = 0.22f;
constexpr float kMinRodRadiusPixels = 0.7f;  // thinner rods are widened (shape.vert.glsl)

enum ShapeMode { kLit = 0, kGhost = 1, kShadow = 2 };

}  // namespace

struct Renderer::Impl {
  bool ready = false;
  varsim::render::ShaderProgram shapeProgram, lineProgram, skyProgram, gridProgram, gridLineProgram;
  varsim::render::GridLineBuffers gridLines;
  std::vector<varsim::render::GridVertex> gridVertices;
  const varsim::render::GroundGridStyle gridStyle = [] {  // haze shared with the sky and ground
    varsim::render::GroundGridStyle g;
    g.horizon = kHorizon;
    g.groundFar = kGroundFar;
    return g;
  }();
  varsim::render::PrimitiveBuffers primitives;
  varsim::render::DynamicMeshBuffers meshes;
  varsim::render::LineBuffers lines;
  varsim::render::BackdropBuffers backdrop;
  varsim::render::OffscreenTarget offscreen;
  int maxSamples = 0;
  GLuint target = 0;  // setTargetFramebuffer; 0 is the window
  bool software = false;
  Stats stats;

  // Per-frame scratch, kept to avoid reallocation.
  varsim::render::InstanceBuckets buckets;
  std::vector<varsim::render::LineSegment> opaqueSegments, translucentSegments;

  // Flat ground around the eye, pushed back in depth so shapes and grid lines resting on it never
  // z-fight and faded into the sky's haze before its edge (grid.vert.glsl); then the grid lines
  // (blended, no depth writes) on top.
  int drawGround(const glm::mat4& viewProj, const glm::vec3& eye, float height, float fadeEnd, float pixelsPerRadian,
                 bool multisampled) {
    glDisable(GL_CULL_FACE);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.0f, 1.0f);
    gridProgram.use();
    setUniform(gridProgram, "uViewProj", viewProj);
    glUniform2f(gridProgram.uniform("uCentre"), eye.x, eye.y);
    setUniform(gridProgram, "uHalfSize", fadeEnd);
    setUniform(gridProgram, "uHeight", height);
    setUniform(gridProgram, "uEye", eye);
    setUniform(gridProgram, "uFadeEnd", fadeEnd);
    setUniform(gridProgram, "uGround", kGround);
    setUniform(gridProgram, "uHorizon", kHorizon);
    setUniform(gridProgram, "uGroundFar", kGroundFar);
    int triangles = backdrop.drawGround();
    glDisable(GL_POLYGON_OFFSET_FILL);

    gridVertices.clear();
    appendGroundGrid({eye, height, fadeEnd, pixelsPerRadian, true, viewProj}, gridStyle, gridVertices);
    glDepthMask(GL_FALSE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    gridLineProgram.use();
    setUniform(gridLineProgram, "uViewProj", viewProj);
    // Smooth lines where there are no samples to resolve, except on CPU rasterizers, where they
    // cost as much as the rest of the frame (llvmpipe: ~4.6 ms CPU per 1280x720 frame).
    const bool smooth = !multisampled && !software;
    if (smooth) glEnable(GL_LINE_SMOOTH);
    triangles += gridLines.draw(gridVertices);  // counted as one triangle per segment
    if (smooth) glDisable(GL_LINE_SMOOTH);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    return triangles;
  }

  int drawSky(const glm::mat4& viewProj, bool ground) {
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    glDepthMask(GL_FALSE);
    skyProgram.use();
    setUniform(skyProgram, "uViewProj", viewProj);
    setUniform(skyProgram, "uZenith", kZenith);
    setUniform(skyProgram, "uHorizon", kHorizon);
    setUniform(skyProgram, "uGroundFar", ground ? kGroundFar : kHorizon);
    const int triangles = backdrop.drawSky();
    glDepthMask(GL_TRUE);
    return triangles;
  }

  // Draws instance runs with the shape program bound; rods (cylinders, capsules) get the
  // minimum on-screen radius, other primitives keep their true size. coarse: at most 6 segments
  // (shadow silhouettes need no more).
  void drawBuckets(const std::vector<varsim::render::InstanceBucket>& runs, bool coarse = false) {
    const GLint minRadius = shapeProgram.uniform("uMinRadiusPixels");
    const GLint roundEnds = shapeProgram.uniform("uRoundEnds");
    const GLint billboard = shapeProgram.uniform("uBillboard");
    using varsim::render::Primitive;
    for (const varsim::render::InstanceBucket& b : runs) {
      const auto primitive = Primitive(b.primitive);
      const bool rod = primitive == Primitive::Cylinder || primitive == Primitive::Capsule || primitive == Primitive::Ribbon;
      glUniform1f(minRadius, rod ? kMinRodRadiusPixels : 0.0f);
      glUniform1i(roundEnds, primitive == Primitive::Capsule ? 1 : 0);
      glUniform1i(billboard, primitive == Primitive::Ribbon ? 1 : 0);
      stats.triangles += primitives.draw(b.primitive, coarse ? std::max(b.lod, kLodCount - 2) : b.lod, b.first, b.count);
      ++stats.drawCalls;
    }
    glUniform1f(minRadius, 0.0f);  // triangle meshes drawn next with this program keep their size
    glUniform1i(roundEnds, 0);
    glUniform1i(billboard, 0);
  }
};

Renderer::Renderer() : impl_(std::make_unique<Impl>()) {}
Renderer::~Renderer() = default;

bool Renderer::init(std::string& error) {
  shutdown();
  Impl& r = *impl_;
  if (glCreateShader == nullptr) {
    error = "OpenGL functions are not loaded (call gladLoadGL with a current GL 3.3 core context first)";
    return false;
  }
  if (!r.shapeProgram.load("shape.vert.glsl", "shape.frag.glsl", error) ||
      !r.lineProgram.load("line.vert.glsl", "line.frag.glsl", error) ||
      !r.skyProgram.load("sky.vert.glsl", "sky.frag.glsl", error) ||
      !r.gridProgram.load("grid.vert.glsl", "grid.frag.glsl", error) ||
      !r.gridLineProgram.load("grid_line.vert.glsl", "grid_line.frag.glsl", error)) {
    shutdown();
    return false;
  }
  r.primitives.create();
  r.meshes.create();
  r.lines.create();
  r.backdrop.create();
  r.gridLines.create();
  if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
    error = "OpenGL error " + std::to_string(e) + " while creating renderer buffers";
    shutdown();
    return false;
  }
  glGetIntegerv(GL_MAX_SAMPLES, &r.maxSamples);
  r.ready = true;
  r.software = softwareRasterizer();
  if (r.software) style.msaaSamples = 0;  // per-sample shading cost on a CPU rasterizer
  return true;
}

void Renderer::shutdown() {
  Impl& r = *impl_;
  if (glDeleteVertexArrays == nullptr) return;  // GL never loaded: nothing was created
  r.shapeProgram.destroy();
  r.lineProgram.destroy();
  r.skyProgram.destroy();
  r.gridProgram.destroy();
  r.gridLineProgram.destroy();
  r.gridLines.destroy();
  r.primitives.destroy();
  r.meshes.destroy();
  r.lines.destroy();
  r.backdrop.destroy();
  r.offscreen.destroy();
  r.ready = false;
}

int Renderer::maxMsaaSamples() const { return impl_->ready ? impl_->maxSamples : 0; }

Renderer::Stats Renderer::stats() const { return impl_->stats; }

void Renderer::skipFrame() { impl_->stats = Stats{}; }

bool Renderer::softwareRasterizer() const {
  if (!impl_->ready) return false;
  const char* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  if (name == nullptr) return false;
  const std::string renderer(name);
  for (const char* software : {"llvmpipe", "softpipe", "swrast", "SwiftShader"})
    if (renderer.find(software) != std::string::npos) return true;
  return false;
}

bool Renderer::worldToScreen(const glm::vec3& p, const OrbitCamera& cam, int w, int h, glm::vec2& out) const {
  return cam.project(p, w, h, out);
}

void Renderer::setTargetFramebuffer(unsigned framebuffer) { impl_->target = framebuffer; }

void Renderer::render(const varsim::DrawList& list, const OrbitCamera& camera, ViewRect view, int framebufferWidth,
                      int framebufferHeight) {
  using namespace varsim::render;
  const auto start = std::chrono::steady_clock::now();
  Impl& r = *impl_;
  r.stats = Stats{};
  if (!r.ready || framebufferWidth <= 0 || framebufferHeight <= 0) return;

  // The whole window first (what shows around the view and under translucent panels).
  glBindFramebuffer(GL_FRAMEBUFFER, r.target);
  glDisable(GL_SCISSOR_TEST);
  glViewport(0, 0, framebufferWidth, framebufferHeight);
  glDepthMask(GL_TRUE);
  glStencilMask(0xFF);
  glClearColor(style.outsideColor.r, style.outsideColor.g, style.outsideColor.b, 1.0f);
  glClearDepth(1.0);
  glClearStencil(0);
  if (style.clearOutsideView) glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  glClearColor(kHorizon.r, kHorizon.g, kHorizon.b, 1.0f);  // the view's own clear
  // Clip the view to the framebuffer; GL counts rows from the bottom.
  const int x0 = std::clamp(view.x, 0, framebufferWidth), x1 = std::clamp(view.x + view.width, 0, framebufferWidth);
  const int y0 = std::clamp(view.y, 0, framebufferHeight), y1 = std::clamp(view.y + view.height, 0, framebufferHeight);
  const int width = x1 - x0, height = y1 - y0;
  if (width <= 0 || height <= 0) return;
  const int glX = x0, glY = framebufferHeight - y1;
  const int samples = std::clamp(style.msaaSamples, 0, r.maxSamples);
  const bool offscreen = samples > 0 && r.offscreen.ensure(width, height, samples);
  if (offscreen) {
    r.offscreen.bind();
    glViewport(0, 0, width, height);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  } else {
    glViewport(glX, glY, width, height);
    glEnable(GL_SCISSOR_TEST);
    glScissor(glX, glY, width, height);
    glClear(style.clearOutsideView ? GL_COLOR_BUFFER_BIT : GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
  }
  r.stats.msaaSamples = offscreen ? samples : 0;

  const glm::mat4 view3d = camera.view();
  const glm::mat4 projection = camera.projection(float(width) / float(height));
  const glm::mat4 viewProj = projection * view3d;
  const glm::vec3 eye = camera.eye();
  glm::vec3 lightDir = glm::length(style.lightDirection) > 0 ? glm::normalize(style.lightDirection)
                                                             : glm::vec3(0, 0, 1);
  if (lightDir.z < 0.05f) lightDir = glm::normalize(glm::vec3(lightDir.x, lightDir.y, 0.05f));
  const float groundHeight = std::isfinite(list.camera.groundHeight) ? list.camera.groundHeight : 0.0f;
  const bool ground = list.camera.showGround;
  // Fade distance scales with how far we look from, so a close-up and an overview both get a
  // ground that reaches the horizon haze; never beyond the far plane.
  const float eyeHeight = std::abs(eye.z - groundHeight);
  const float fadeEnd = std::min(std::max({60.0f, 14.0f * camera.distance, 4.0f * eyeHeight}),
                                 0.9f * camera.farClip());

  if (offscreen) glEnable(GL_MULTISAMPLE);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_STENCIL_TEST);
  glDisable(GL_POLYGON_OFFSET_FILL);

  glDisable(GL_BLEND);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);

  // Expand shapes into parts, choose levels of detail, and sort them into opaque buckets and
  // back-to-front ghosts. Instances are laid out bucket by bucket in one upload.
  const float pixelsPerRadian = lodPixelsPerRadian(height, camera.fovY);
  // Off-view parts are skipped unless they may cast a drop shadow into the view.
  const bool cull = !(ground && style.shadows);
  r.buckets.build(list.shapes, {eye, camera.forward(), viewProj, width, height, pixelsPerRadian, cull}, style.ghostAlpha);
  const int opaqueTotal = r.buckets.opaqueCount();
  r.primitives.uploadInstances(r.buckets.instances());

  // Ground and grid first: the grid lines write no depth, so anything lying on the ground (pads,
  // markings, at exactly its height) is drawn over them; the ground itself is pushed back in depth.
  if (ground) {
    r.stats.triangles += r.drawGround(viewProj, eye, groundHeight, fadeEnd, pixelsPerRadian, offscreen);
    r.stats.drawCalls += 2;
  }

  // Opaque shapes.
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glEnable(GL_CULL_FACE);
  glCullFace(GL_BACK);
  r.shapeProgram.use();
  setUniform(r.shapeProgram, "uViewProj", viewProj);
  setUniform(r.shapeProgram, "uEye", eye);
  setUniform(r.shapeProgram, "uLightDir", lightDir);
  setUniform(r.shapeProgram, "uLightColor", kLightColorLinear);
  setUniform(r.shapeProgram, "uSkyAmbient", kSkyAmbientLinear);
  setUniform(r.shapeProgram, "uGroundAmbient", kGroundAmbientLinear);
  setUniform(r.shapeProgram, "uGroundHeight", groundHeight);
  setUniform(r.shapeProgram, "uShadowAlpha", kShadowAlpha);
  setUniform(r.shapeProgram, "uFadeEnd", fadeEnd);
  setUniform(r.shapeProgram, "uRadiansPerPixel", camera.fovY / float(height));
  setUniform(r.shapeProgram, "uMode", int(kLit));
  setUniform(r.shapeProgram, "uTwoSided", 0);
  r.drawBuckets(r.buckets.opaqueBuckets());

  // Opaque triangle meshes (open surfaces: both sides lit).
  glDisable(GL_CULL_FACE);
  setUniform(r.shapeProgram, "uTwoSided", 1);
  for (const varsim::TriangleMesh& mesh : list.meshes)
    if (mesh.color.a >= 1.0f) {
      r.stats.triangles += r.meshes.draw(mesh);
      ++r.stats.drawCalls;
    }

  // Drop shadows on the ground (stencil: each pixel darkened once however many parts overlap there).
  if (ground) {
    if (style.shadows && opaqueTotal > 0 && opaqueTotal <= style.maxShadowCasters) {
      glDepthMask(GL_FALSE);
      glEnable(GL_BLEND);
      glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
      glEnable(GL_STENCIL_TEST);
      glStencilFunc(GL_EQUAL, 0, 0xFF);
      glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
      glEnable(GL_POLYGON_OFFSET_FILL);
      glPolygonOffset(-1.0f, -1.0f);
      r.shapeProgram.use();
      setUniform(r.shapeProgram, "uMode", int(kShadow));
      r.drawBuckets(r.buckets.opaqueBuckets(), true);
      glDisable(GL_POLYGON_OFFSET_FILL);
      glDisable(GL_STENCIL_TEST);
      glDepthMask(GL_TRUE);
    }
  }

  // Sky last among the opaque layers: at the far plane with GL_LEQUAL, so it shades only the
  // pixels nothing else covered (the most expensive full-screen pass on software GL).
  r.stats.triangles += r.drawSky(viewProj, ground);
  ++r.stats.drawCalls;

  // Lines: opaque ones write depth; translucent ones are drawn with the ghosts' state below.
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  r.opaqueSegments.clear();
  r.translucentSegments.clear();
  for (const varsim::LineStrip& strip : list.lines)
    appendSegments(strip, strip.color.a >= 1.0f ? r.opaqueSegments : r.translucentSegments);
  r.lineProgram.use();
  setUniform(r.lineProgram, "uViewProj", viewProj);
  glUniform2f(r.lineProgram.uniform("uViewport"), float(width), float(height));
  r.lines.upload(r.opaqueSegments, r.translucentSegments);
  if (!r.opaqueSegments.empty()) {
    r.stats.triangles += r.lines.draw(0, int(r.opaqueSegments.size()));
    ++r.stats.drawCalls;
  }

  // Translucent: ghosts back to front, then translucent meshes and lines; no depth writes so
  // overlapping translucent items do not cut holes into each other.
  glDepthMask(GL_FALSE);
  if (!r.buckets.ghostBuckets().empty()) {
    glEnable(GL_CULL_FACE);
    r.shapeProgram.use();
    setUniform(r.shapeProgram, "uMode", int(kGhost));
    setUniform(r.shapeProgram, "uTwoSided", 0);
    r.drawBuckets(r.buckets.ghostBuckets());
    glDisable(GL_CULL_FACE);
  }
  r.shapeProgram.use();
  setUniform(r.shapeProgram, "uMode", int(kLit));
  setUniform(r.shapeProgram, "uTwoSided", 1);
  for (const varsim::TriangleMesh& mesh : list.meshes)
    if (mesh.color.a < 1.0f) {
      r.stats.triangles += r.meshes.draw(mesh);
      ++r.stats.drawCalls;
    }
  if (!r.translucentSegments.empty()) {
    r.lineProgram.use();
    r.stats.triangles += r.lines.draw(int(r.opaqueSegments.size()), int(r.translucentSegments.size()));
    ++r.stats.drawCalls;
  }

  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
  glBindVertexArray(0);
  glUseProgram(0);
  if (offscreen) r.offscreen.resolveTo(glX, glY, r.target);
  glViewport(0, 0, framebufferWidth, framebufferHeight);
  r.stats.cpuMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}
