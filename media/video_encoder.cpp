// See video_encoder.h. Frames go RGB -> (swscale) codec pixel format -> encoder -> muxer; timestamps
// are frame indices in a 1/fps time base, so the file plays at the rate the frames were sampled.
#include "media/video_encoder.h"

#include <cstring>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace varsim::media {

namespace {

struct Format {
  const char* extension;
  AVCodecID codec;
  AVPixelFormat pixels;
};
constexpr Format kFormats[] = {{".mp4", AV_CODEC_ID_H264, AV_PIX_FMT_YUV420P},
                               {".webm", AV_CODEC_ID_VP9, AV_PIX_FMT_YUV420P},
                               {".gif", AV_CODEC_ID_GIF, AV_PIX_FMT_RGB8}};

const Format* formatFor(const std::string& path) {
  for (const Format& f : kFormats) {
    const std::size_t n = std::strlen(f.extension);
    if (path.size() > n && path.compare(path.size() - n, n, f.extension) == 0) return &f;
  }
  return nullptr;
}

std::string avError(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return text;
}

}  // namespace

std::string videoFormatError(const std::string& path) {
  if (formatFor(path) != nullptr) return "";
  return "'" + path + "': unknown video extension; allowed .mp4 (H.264), .webm (VP9), .gif";
}

struct VideoEncoder::Impl {
  std::string path;
  AVFormatContext* container = nullptr;
  AVCodecContext* codec = nullptr;
  AVStream* stream = nullptr;
  SwsContext* scaler = nullptr;
  AVFrame* frame = nullptr;
  AVPacket* packet = nullptr;
  int width = 0, height = 0;
  long frames = 0;
  bool headerWritten = false;
  std::string codecName;  // kept after close() for the caller's summary line

  // Drains every packet the encoder has ready into the file.
  bool drain(std::string& error) {
    for (;;) {
      int r = avcodec_receive_packet(codec, packet);
      if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return true;
      if (r < 0) return fail("encoding failed: " + avError(r), error);
      // Every frame lasts 1/fps. Without a duration the MP4 muxer gives the last sample none, its edit
      // list ends at that sample's start and players (and libavformat) drop the last frame.
      if (packet->duration <= 0) packet->duration = 1;
      av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
      packet->stream_index = stream->index;
      r = av_interleaved_write_frame(container, packet);
      if (r < 0) return fail("write failed: " + avError(r), error);
    }
  }
  bool fail(const std::string& why, std::string& error) const {
    error = "video '" + path + "': " + why;
    return false;
  }
  void close() {
    if (container != nullptr && headerWritten) av_write_trailer(container);
    if (container != nullptr && container->pb != nullptr) avio_closep(&container->pb);
    avformat_free_context(container);
    avcodec_free_context(&codec);
    sws_freeContext(scaler);
    av_frame_free(&frame);
    av_packet_free(&packet);
    container = nullptr;
    scaler = nullptr;
    headerWritten = false;
  }
};

// RGB to the codec's pixels. GIF's 3-3-2 colours get an ordered (Bayer) dither, fixed to the pixel grid:
// swscale's default error diffusion makes noise that differs from frame to frame, which the GIF encoder
// cannot skip as unchanged and LZW cannot compress (the 20-link ladder, 4 s at 10 fps, 320x180: 852 KB with
// error diffusion, 27 KB with Bayer, 18 KB undithered but banded).
SwsContext* makeScaler(int width, int height, AVPixelFormat pixels) {
  SwsContext* s = sws_alloc_context();
  if (s == nullptr) return nullptr;
  av_opt_set_int(s, "srcw", width, 0);
  av_opt_set_int(s, "srch", height, 0);
  av_opt_set_int(s, "src_format", AV_PIX_FMT_RGB24, 0);
  av_opt_set_int(s, "dstw", width, 0);
  av_opt_set_int(s, "dsth", height, 0);
  av_opt_set_int(s, "dst_format", pixels, 0);
  av_opt_set_int(s, "sws_flags", SWS_BILINEAR, 0);
  if (pixels == AV_PIX_FMT_RGB8) av_opt_set(s, "sws_dither", "bayer", 0);
  if (sws_init_context(s, nullptr, nullptr) < 0) {
    sws_freeContext(s);
    return nullptr;
  }
  return s;
}

VideoEncoder::VideoEncoder() : impl_(std::make_unique<Impl>()) {}
VideoEncoder::~VideoEncoder() { impl_->close(); }

bool VideoEncoder::open(const std::string& path, int width, int height, int fps, std::string& error) {
  Impl& m = *impl_;
  m.close();
  m.path = path;
  const Format* format = formatFor(path);
  if (format == nullptr) return (error = videoFormatError(path), false);
  if (width < 16 || height < 16 || width > kMaxVideoSide || height > kMaxVideoSide || width % 2 || height % 2)
    return m.fail("size " + std::to_string(width) + "x" + std::to_string(height) + " out of range; allowed even sides in [16, " +
                      std::to_string(kMaxVideoSide) + "]", error);
  if (fps < 1 || fps > kMaxVideoFps)
    return m.fail("fps " + std::to_string(fps) + " out of range; allowed [1, " + std::to_string(kMaxVideoFps) + "]", error);
  av_log_set_level(AV_LOG_ERROR);
  const AVCodec* encoder = avcodec_find_encoder(format->codec);
  if (encoder == nullptr)
    return m.fail(std::string("this FFmpeg has no encoder for ") + avcodec_get_name(format->codec), error);
  int r = avformat_alloc_output_context2(&m.container, nullptr, nullptr, path.c_str());
  if (r < 0 || m.container == nullptr) return m.fail("no container for this extension: " + avError(r), error);
  m.stream = avformat_new_stream(m.container, nullptr);
  m.codec = avcodec_alloc_context3(encoder);
  m.frame = av_frame_alloc();
  m.packet = av_packet_alloc();
  if (m.stream == nullptr || m.codec == nullptr || m.frame == nullptr || m.packet == nullptr)
    return m.fail("out of memory", error);
  m.codec->width = m.width = width;
  m.codec->height = m.height = height;
  m.codec->time_base = AVRational{1, fps};
  m.codec->framerate = AVRational{fps, 1};
  m.codec->pix_fmt = format->pixels;
  m.codec->gop_size = 2 * fps;
  m.codec->thread_count = 1;  // deterministic bytes, and the machine's cores are the renderer's
  if (format->codec == AV_CODEC_ID_H264) {
    av_opt_set(m.codec->priv_data, "preset", "veryfast", 0);
    av_opt_set(m.codec->priv_data, "crf", "20", 0);
  }
  if (format->codec == AV_CODEC_ID_VP9) {
    av_opt_set(m.codec->priv_data, "deadline", "realtime", 0);
    av_opt_set_int(m.codec->priv_data, "cpu-used", 8, 0);
  }
  if (m.container->oformat->flags & AVFMT_GLOBALHEADER) m.codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  if ((r = avcodec_open2(m.codec, encoder, nullptr)) < 0) return m.fail("cannot open encoder: " + avError(r), error);
  m.codecName = encoder->name;
  avcodec_parameters_from_context(m.stream->codecpar, m.codec);
  m.stream->time_base = m.codec->time_base;
  if ((r = avio_open(&m.container->pb, path.c_str(), AVIO_FLAG_WRITE)) < 0)
    return m.fail("cannot open for writing: " + avError(r), error);
  if ((r = avformat_write_header(m.container, nullptr)) < 0) return m.fail("cannot write header: " + avError(r), error);
  m.headerWritten = true;
  m.frame->format = format->pixels;
  m.frame->width = width;
  m.frame->height = height;
  if (av_frame_get_buffer(m.frame, 0) < 0) return m.fail("out of memory", error);
  m.scaler = makeScaler(width, height, format->pixels);
  if (m.scaler == nullptr) return m.fail("no pixel conversion to the codec's format", error);
  m.frames = 0;
  return true;
}

bool VideoEncoder::addFrame(const std::vector<unsigned char>& rgb, std::string& error) {
  Impl& m = *impl_;
  if (m.codec == nullptr) return m.fail("not open", error);
  if (rgb.size() != std::size_t(m.width) * std::size_t(m.height) * 3)
    return m.fail("frame has " + std::to_string(rgb.size()) + " bytes, expected " +
                      std::to_string(std::size_t(m.width) * std::size_t(m.height) * 3), error);
  if (av_frame_make_writable(m.frame) < 0) return m.fail("out of memory", error);
  const uint8_t* src[1] = {rgb.data()};
  const int stride[1] = {3 * m.width};
  sws_scale(m.scaler, src, stride, 0, m.height, m.frame->data, m.frame->linesize);
  m.frame->pts = m.frames++;
  const int r = avcodec_send_frame(m.codec, m.frame);
  if (r < 0) return m.fail("encoding failed: " + avError(r), error);
  return m.drain(error);
}

bool VideoEncoder::finish(std::string& error) {
  Impl& m = *impl_;
  if (m.codec == nullptr) return m.fail("not open", error);
  bool ok = avcodec_send_frame(m.codec, nullptr) >= 0 && m.drain(error);
  if (ok && m.headerWritten) {
    const int r = av_write_trailer(m.container);
    m.headerWritten = false;
    if (r < 0) ok = m.fail("write failed: " + avError(r), error);
  }
  if (ok && m.container->pb != nullptr) {
    avio_flush(m.container->pb);
    if (m.container->pb->error < 0) ok = m.fail("write failed: " + avError(m.container->pb->error), error);
    const int r = avio_closep(&m.container->pb);
    if (ok && r < 0) ok = m.fail("close failed: " + avError(r), error);
  }
  m.close();
  return ok;
}

long VideoEncoder::framesWritten() const { return impl_->frames; }
std::string VideoEncoder::codecName() const { return impl_->codecName; }

}  // namespace varsim::media
