// Renderer benchmark and look check: opens a 1280x720 GL 3.3 core window (run under
// xvfb-run -a -s "-screen 0 1280x720x24"), saves a showcase PNG with every primitive kind, lines,
// meshes, ghosts and the grid, then times frames of N shapes (ladder-like rods and random mixes).
// Usage: bench_render [--png FILE] [--frames N] [--rows N]. Prints a table; not a timed test.
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "render/renderer.h"
#include "render/screenshot.h"

namespace {

varsim::Mat4 toMat4(const glm::mat4& m) {
  varsim::Mat4 out;
  std::memcpy(out.data(), glm::value_ptr(m), sizeof(float) * 16);
  return out;
}

varsim::ShapeItem shape(varsim::ShapeKind kind, const glm::mat4& transform, varsim::Vec3f size, varsim::Rgba color,
                        bool ghost = false) {
  varsim::ShapeItem s;
  s.kind = kind;
  s.transform = toMat4(transform);
  s.size = size;
  s.color = color;
  s.ghost = ghost;
  return s;
}

// Frame aligning local z with the direction a -> b, placed at a.
glm::mat4 alongZ(glm::vec3 a, glm::vec3 b) {
  const glm::vec3 z = glm::normalize(b - a);
  const glm::vec3 helper = std::abs(z.z) < 0.9f ? glm::vec3(0, 0, 1) : glm::vec3(1, 0, 0);
  const glm::vec3 x = glm::normalize(glm::cross(helper, z));
  const glm::vec3 y = glm::cross(z, x);
  return glm::mat4(glm::vec4(x, 0), glm::vec4(y, 0), glm::vec4(z, 0), glm::vec4(a, 1));
}

// Every primitive kind, ghosts, trails, vectors, an opaque and a translucent mesh, on the grid.
varsim::DrawList showcase() {
  using varsim::ShapeKind;
  varsim::DrawList d;
  const glm::mat4 I(1.0f);
  auto at = [&](float x, float y, float z) { return glm::translate(I, glm::vec3(x, y, z)); };
  d.shapes.push_back(shape(ShapeKind::Box, glm::rotate(at(-3, 0, 0.5f), 0.4f, glm::vec3(0, 0, 1)), {1.0f, 1.0f, 1.0f},
                           {0.86f, 0.33f, 0.25f, 1}));
  d.shapes.push_back(shape(ShapeKind::Sphere, at(-1.5f, 0, 0.6f), {0.6f, 0.6f, 0.6f}, {0.25f, 0.55f, 0.85f, 1}));
  d.shapes.push_back(shape(ShapeKind::Cylinder, at(0, 0, 0.6f), {0.4f, 0.4f, 1.2f}, {0.95f, 0.75f, 0.2f, 1}));
  d.shapes.push_back(shape(ShapeKind::Capsule, glm::rotate(at(1.5f, 0, 0.9f), 0.5f, glm::vec3(1, 0, 0)),
                           {0.3f, 0.3f, 1.0f}, {0.35f, 0.75f, 0.4f, 1}));
  d.shapes.push_back(shape(ShapeKind::Disc, glm::rotate(at(3, 0, 0.8f), 1.2f, glm::vec3(1, 0, 0)), {0.7f, 0.7f, 0.7f},
                           {0.65f, 0.4f, 0.8f, 1}));
  d.shapes.push_back(shape(ShapeKind::Arrow, alongZ({4.2f, -0.5f, 0.05f}, {4.8f, 0.5f, 1.5f}), {0.05f, 0.12f, 1.6f},
                           {0.9f, 0.45f, 0.15f, 1}));
  // A tumbling-body style comparison: solid body and its ghost slightly rotated.
  d.shapes.push_back(shape(ShapeKind::Box, glm::rotate(at(0, 3, 1.2f), 0.3f, glm::vec3(1, 1, 0)), {1.6f, 0.8f, 0.4f},
                           {0.2f, 0.6f, 0.9f, 1}));
  d.shapes.push_back(shape(ShapeKind::Box, glm::rotate(at(0.3f, 3.2f, 1.3f), 0.9f, glm::vec3(1, 1, 0)),
                           {1.6f, 0.8f, 0.4f}, {0.95f, 0.55f, 0.2f, 1}, true));
  d.shapes.push_back(shape(ShapeKind::Sphere, at(-3, 3, 1.0f), {0.5f, 0.5f, 0.5f}, {0.9f, 0.3f, 0.3f, 0.4f}, true));
  // Ladder fragment: capsule rods between joints, sitting on the ground.
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 a(-4.0f + 0.6f * float(i), -3.0f, 0.08f), b(a.x + 0.6f, -3.0f, 0.08f);
    d.shapes.push_back(shape(ShapeKind::Capsule, alongZ(a, b) * glm::translate(I, glm::vec3(0, 0, 0.3f)),
                             {0.04f, 0.04f, 0.6f}, {0.75f, 0.75f, 0.78f, 1}));
    const glm::vec3 c(a.x, -2.2f, 0.08f);
    d.shapes.push_back(shape(ShapeKind::Capsule, alongZ(a, c) * glm::translate(I, glm::vec3(0, 0, 0.4f)),
                             {0.04f, 0.04f, 0.8f}, {0.75f, 0.75f, 0.78f, 1}));
  }
  // Trail (helix), a closed loop on the ground, and a force vector line.
  varsim::LineStrip helix;
  for (int i = 0; i <= 200; ++i) {
    const float t = 0.05f * float(i);
    helix.points.push_back({4.0f + 0.8f * std::cos(t), 3.0f + 0.8f * std::sin(t), 0.2f + 0.15f * t});
  }
  helix.color = {0.85f, 0.2f, 0.55f, 1};
  helix.width = 3.0f;
  d.lines.push_back(helix);
  varsim::LineStrip loop;
  for (int i = 0; i < 64; ++i) {
    const float t = 6.2831853f * float(i) / 64.0f;
    loop.points.push_back({1.5f * std::cos(t), 1.5f * std::sin(t), 0.0f});
  }
  loop.loop = true;
  loop.color = {0.1f, 0.1f, 0.1f, 0.6f};
  loop.width = 2.0f;
  d.lines.push_back(loop);
  d.lines.push_back({{{0, 3, 1.2f}, {0, 3, 2.8f}}, {0.1f, 0.7f, 0.3f, 1}, 4.0f, false});
  // Water-like translucent surface and an opaque terrain bump.
  varsim::TriangleMesh water;
  const int n = 40;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      const float x = -9.0f + 6.0f * float(i) / n, y = 1.0f + 6.0f * float(j) / n;
      const float z = 0.35f + 0.08f * std::sin(1.7f * x) * std::cos(1.3f * y);
      water.positions.push_back({x, y, z});
      // Gradient of z gives the (unnormalized) normal; the renderer normalizes it.
      water.normals.push_back({-0.136f * std::cos(1.7f * x) * std::cos(1.3f * y),
                               0.104f * std::sin(1.7f * x) * std::sin(1.3f * y), 1.0f});
    }
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const unsigned a = unsigned(j * (n + 1) + i), b = a + 1, c = a + unsigned(n + 1), e = c + 1;
      water.indices.insert(water.indices.end(), {a, b, e, a, e, c});
    }
  water.color = {0.2f, 0.45f, 0.75f, 0.55f};
  d.meshes.push_back(water);
  varsim::TriangleMesh bump;  // normals left empty: the renderer computes them
  for (int j = 0; j <= 20; ++j)
    for (int i = 0; i <= 20; ++i) {
      const float x = 5.0f + 3.0f * float(i) / 20, y = -5.0f + 3.0f * float(j) / 20;
      const float r2 = (x - 6.5f) * (x - 6.5f) + (y + 3.5f) * (y + 3.5f);
      bump.positions.push_back({x, y, 0.6f * std::exp(-r2)});
    }
  for (unsigned j = 0; j < 20; ++j)
    for (unsigned i = 0; i < 20; ++i) {
      const unsigned a = j * 21 + i, b = a + 1, c = a + 21, e = c + 1;
      bump.indices.insert(bump.indices.end(), {a, b, e, a, e, c});
    }
  bump.color = {0.55f, 0.62f, 0.38f, 1};
  d.meshes.push_back(bump);
  d.labels.push_back({{0, 3, 2.9f}, "omega", {1, 1, 1, 1}});
  d.camera.distance = 13.0f;
  d.camera.target = {0, 0, 0.5f};
  return d;
}

// Twenty ladders of 50 square links side by side (3020 capsule rods: two rails per link and one
// rung per joint), the rod count of the 1000-link ladder scene.
varsim::DrawList ladder() {
  varsim::DrawList d;
  const float a = 0.5f;
  const glm::mat4 I(1.0f);
  auto rod = [&](glm::vec3 p, glm::vec3 q) {
    const float length = glm::length(q - p);
    d.shapes.push_back(shape(varsim::ShapeKind::Capsule, alongZ(p, q) * glm::translate(I, glm::vec3(0, 0, 0.5f * length)),
                             {0.03f, 0.03f, length}, {0.35f, 0.45f, 0.6f, 1}));
  };
  for (int column = 0; column < 20; ++column)
    for (int i = 0; i <= 50; ++i) {
      const glm::vec3 left(float(column) * 1.5f, 0, 1.0f + float(i) * a), right = left + glm::vec3(a, 0, 0);
      rod(left, right);
      if (i < 50) {
        rod(left, left + glm::vec3(0, 0, a));
        rod(right, right + glm::vec3(0, 0, a));
      }
    }
  d.camera.target = {15.0f, 0, 13.0f};
  d.camera.distance = 40.0f;
  return d;
}

varsim::DrawList randomShapes(int count, std::uint32_t seed) {
  varsim::DrawList d;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pos(-15.0f, 15.0f), unit(0.0f, 1.0f), angle(-3.14f, 3.14f);
  for (int i = 0; i < count; ++i) {
    const auto kind = varsim::ShapeKind(i % 6);
    glm::mat4 m = glm::translate(glm::mat4(1.0f), glm::vec3(pos(rng), pos(rng), 0.5f + 3.0f * unit(rng)));
    m = glm::rotate(m, angle(rng), glm::normalize(glm::vec3(unit(rng), unit(rng), unit(rng) + 0.1f)));
    const float s = 0.15f + 0.35f * unit(rng);
    d.shapes.push_back(shape(kind, m, {s, s, 2.0f * s}, {unit(rng), unit(rng), unit(rng), 1}, i % 50 == 0));
  }
  d.camera.distance = 35.0f;
  return d;
}

double processCpuMs() {  // all threads (llvmpipe rasterizes on worker threads)
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return 1e3 * double(ts.tv_sec) + 1e-6 * double(ts.tv_nsec);
}

struct Timing {
  double medianMs, p99Ms, cpuMs, processMs;
  Renderer::Stats stats;
};

Timing timeFrames(GLFWwindow* window, Renderer& renderer, const varsim::DrawList& list, OrbitCamera camera, int frames) {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window, &w, &h);
  std::vector<double> ms;
  double cpu = 0, process = 0;
  for (int f = 0; f < frames + 5; ++f) {
    const double p0 = processCpuMs();
    camera.yaw += 0.01f;  // keep the view changing like a user orbiting
    const auto t0 = std::chrono::steady_clock::now();
    renderer.render(list, camera, w, h);
    glfwSwapBuffers(window);
    glFinish();
    const double dt = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (f >= 5) {  // warm-up frames compile shader variants in llvmpipe
      ms.push_back(dt);
      cpu += renderer.stats().cpuMs;
      process += processCpuMs() - p0;
    }
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms[std::min(ms.size() - 1, std::size_t(0.99 * double(ms.size())))], cpu / frames,
          process / frames, renderer.stats()};
}

}  // namespace

int main(int argc, char** argv) {
  std::string png = "bench_render_showcase.png";
  int frames = 60;
  int maxRows = 100;  // --rows N: only the first N table rows (quick A/B runs of shader variants)
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--png") == 0) png = argv[i + 1];
    else if (std::strcmp(argv[i], "--frames") == 0) frames = std::max(1, std::atoi(argv[i + 1]));
    else if (std::strcmp(argv[i], "--rows") == 0) maxRows = std::max(0, std::atoi(argv[i + 1]));
  }
  if (!glfwInit()) {
    std::fprintf(stderr, "bench_render: no display (run under xvfb-run -a -s \"-screen 0 1280x720x24\")\n");
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, std::getenv("BENCH_RENDER_SAMPLES") ? std::atoi(std::getenv("BENCH_RENDER_SAMPLES")) : 4);
  GLFWwindow* window = glfwCreateWindow(1280, 720, "bench_render", nullptr, nullptr);
  if (window == nullptr) {
    std::fprintf(stderr, "bench_render: cannot create a GL 3.3 core window\n");
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(0);
  if (gladLoadGL(glfwGetProcAddress) == 0) {
    std::fprintf(stderr, "bench_render: gladLoadGL failed\n");
    return 1;
  }
  GLint samples = 0;
  glGetIntegerv(GL_SAMPLES, &samples);
  std::printf("GL_RENDERER: %s | GL_VERSION: %s | MSAA samples: %d\n",
              reinterpret_cast<const char*>(glGetString(GL_RENDERER)),
              reinterpret_cast<const char*>(glGetString(GL_VERSION)), samples);
  Renderer renderer;
  std::string error;
  if (!renderer.init(error)) {
    std::fprintf(stderr, "bench_render: renderer init failed: %s\n", error.c_str());
    return 1;
  }
  int w = 0, h = 0;
  glfwGetFramebufferSize(window, &w, &h);

  // Showcase picture.
  {
    const varsim::DrawList list = showcase();
    OrbitCamera camera;
    camera.update(list.camera, 0.0f);
    camera.yaw = -1.2f;
    camera.pitch = 0.42f;
    renderer.render(list, camera, w, h);
    if (!saveFramebufferPng(png, w, h, error)) std::fprintf(stderr, "bench_render: %s\n", error.c_str());
    else std::printf("showcase written to %s (%dx%d)\n", png.c_str(), w, h);
    glfwSwapBuffers(window);
  }
  if (const char* ladderPng = std::getenv("BENCH_RENDER_LADDER_PNG")) {
    const varsim::DrawList list = ladder();
    OrbitCamera camera;
    camera.update(list.camera, 0.0f);
    renderer.render(list, camera, w, h);
    saveFramebufferPng(ladderPng, w, h, error);
    glfwSwapBuffers(window);
  }

  std::printf("\n%dx%d, %d frames per row (after 5 warm-up frames), swap interval 0, glFinish per frame\n", w, h, frames);
  // Wall-clock frame times depend on what else runs on the machine; process CPU per frame (all
  // threads, llvmpipe's rasterizer threads included) does not, so both are printed.
  std::printf("| scene | shapes | draw calls | triangles | render() ms | frame ms median | frame ms p99 | FPS (median) | process CPU ms/frame |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  int rows = 0;
  auto row = [&](const char* name, const varsim::DrawList& list) {
    if (rows++ >= maxRows) return;
    OrbitCamera camera;
    camera.update(list.camera, 0.0f);
    const Timing t = timeFrames(window, renderer, list, camera, frames);
    std::printf("| %s | %zu | %d | %d | %.2f | %.2f | %.2f | %.0f | %.2f |\n", name, list.shapes.size(), t.stats.drawCalls,
                t.stats.triangles, t.cpuMs, t.medianMs, t.p99Ms, 1000.0 / t.medianMs, t.processMs);
  };
  varsim::DrawList empty;
  row("empty (sky + grid)", empty);
  empty.camera.showGround = false;
  row("empty (sky only)", empty);
  row("showcase", showcase());
  row("random mix", randomShapes(100, 1));
  row("random mix", randomShapes(1000, 2));
  row("ladder, 3020 capsule rods", ladder());
  renderer.style.shadows = false;
  row("ladder, 3020 rods, no shadows", ladder());
  renderer.style.shadows = true;
  row("random mix", randomShapes(3001, 3));
  row("random mix", randomShapes(10000, 4));
  renderer.shutdown();
  glfwDestroyWindow(window);
  glfwTerminate();
  return 0;
}
