// See video_recording.h. Frame n falls on the first step k (counted from the start) with k h >= n/fps - h/2,
// the rule of `varsim run --video` (ui/video/video_sink.cpp).
#include "ui/app/video_recording.h"

#include <glad/gl.h>

#include <cstdio>
#include <deque>

#include "media/video_encoder.h"
#include "ui/app/app_state.h"
#include "ui/video/frame_maker.h"
#include "ui/video/video_hud.h"

namespace varsim {

namespace {
struct KeptFrame {
  DrawList list;
  std::vector<video::HudLine> hud;
};
}  // namespace

struct VideoRecording::Impl {
  std::string path;
  media::VideoEncoder encoder;
  std::unique_ptr<video::FrameMaker> maker;  // its GL objects live in the window's context
  std::deque<KeptFrame> kept;
  long steps = 0, next = 0;  // steps since the start; index of the next frame to keep
  long encoded = 0;
  bool active = false;

  void keep(const SimDriver& d) {
    KeptFrame f;
    d.scene().draw(f.list);
    f.hud = video::videoHudLines({d.sceneName(), d.scene().time(), video::energyOf(d.columns(), d.lastRow()),
                                  &d.energyMonitor(), d.scene().parameterWarning()},
                                 f.list);
    kept.push_back(std::move(f));
    ++next;
  }
};

VideoRecording::VideoRecording() : impl_(std::make_unique<Impl>()) {}
VideoRecording::~VideoRecording() = default;

bool VideoRecording::start(const std::string& path, const SimDriver& driver, std::string& error) {
  Impl& m = *impl_;
  if (!driver.loaded()) return (error = "no scene to record", false);
  m.kept.clear();
  m.steps = m.next = m.encoded = 0;
  m.path = path;
  m.maker = std::make_unique<video::FrameMaker>();
  if (!m.maker->init(kWidth, kHeight, error) || !m.encoder.open(path, kWidth, kHeight, kFps, error)) {
    m.maker.reset();
    return false;
  }
  m.active = true;
  m.keep(driver);
  return true;
}

void VideoRecording::afterStep(const SimDriver& driver) {
  Impl& m = *impl_;
  if (!m.active) return;
  const double h = driver.h(), t = double(++m.steps) * h;
  while (double(m.next) / kFps <= t + 0.5 * h) m.keep(driver);
}

bool VideoRecording::flush(const OrbitCamera* userCamera, std::string& error) {
  Impl& m = *impl_;
  if (!m.active || m.kept.empty()) return true;
  GLint framebuffer = 0, viewport[4] = {0, 0, 0, 0};  // the window's frame goes on after this
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &framebuffer);
  glGetIntegerv(GL_VIEWPORT, viewport);
  bool ok = true;
  while (ok && !m.kept.empty()) {
    const KeptFrame& f = m.kept.front();
    m.maker->aim(f.list, 1.0f / float(kFps), {});
    ok = m.maker->render(f.list, userCamera ? *userCamera : m.maker->camera(), f.hud, error) &&
         m.encoder.addFrame(m.maker->rgb(), error);
    if (ok) ++m.encoded;
    m.kept.pop_front();
  }
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(framebuffer));
  glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
  return ok;
}

bool VideoRecording::stop(std::string& summary) {
  Impl& m = *impl_;
  if (!m.active) return true;
  m.active = false;
  m.kept.clear();
  std::string error;
  const bool ok = m.encoder.finish(error);
  char text[64];
  std::snprintf(text, sizeof text, "%ld frames, %.2f s at %d fps", m.encoded, double(m.encoded) / kFps, kFps);
  summary = ok ? "video: " + std::string(text) + " -> " + m.path : error;
  m.maker.reset();
  return ok;
}

bool VideoRecording::active() const { return impl_->active; }
double VideoRecording::seconds() const { return double(impl_->encoded + long(impl_->kept.size())) / kFps; }

bool endVideoRecording(AppState& app, std::string& message) {
  message.clear();
  if (!app.videoRecording.active()) return true;
  std::string error;
  if (!app.videoRecording.flush(app.cameraMoved ? &app.camera : nullptr, error)) {
    app.videoRecording.stop(message);
    message = error;
    return false;
  }
  return app.videoRecording.stop(message);
}

void toggleVideoRecording(AppState& app) {
  std::string message;
  if (app.videoRecording.active()) {
    const bool ok = endVideoRecording(app, message);
    app.notify(message, !ok);
    return;
  }
  char path[256];
  std::snprintf(path, sizeof path, "varsim_%s_step%ld.mp4", app.driver.loaded() ? app.driver.sceneName().c_str() : "empty",
                app.driver.step());
  if (!app.videoRecording.start(path, app.driver, message)) {
    app.notify("recording not started: " + message, true);
    return;
  }
  app.notify(std::string("recording ") + path + " (F9 stops)");
}

void flushVideoRecording(AppState& app) {
  std::string error;
  if (app.videoRecording.flush(app.cameraMoved ? &app.camera : nullptr, error)) return;
  std::string summary;
  app.videoRecording.stop(summary);
  app.notify("recording stopped: " + error, true);
}

std::string videoRecordingHudLine(const AppState& app) {
  if (!app.videoRecording.active()) return {};
  const int s = int(app.videoRecording.seconds());
  char text[48];
  std::snprintf(text, sizeof text, "\xE2\x97\x8F REC %02d:%02d", s / 60, s % 60);  // U+25CF, merged from DejaVu
  return text;
}

}  // namespace varsim
