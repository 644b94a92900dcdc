// See video_probe.h. The hash is FNV-1a over the first plane row by row (luma for yuv420p, palette
// indices for GIF), skipping the line padding FFmpeg adds.
#include "media/video_probe.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
}

namespace varsim::media {

namespace {

std::uint64_t hashPlane(const AVFrame* f) {
  std::uint64_t h = 1469598103934665603ull;
  for (int y = 0; y < f->height; ++y)
    for (int x = 0; x < f->width; ++x) h = (h ^ f->data[0][y * f->linesize[0] + x]) * 1099511628211ull;
  return h;
}

struct Decoder {
  AVFormatContext* container = nullptr;
  AVCodecContext* codec = nullptr;
  AVFrame* frame = av_frame_alloc();
  AVPacket* packet = av_packet_alloc();
  ~Decoder() {
    av_packet_free(&packet);
    av_frame_free(&frame);
    avcodec_free_context(&codec);
    avformat_close_input(&container);
  }
  void receive(VideoProbe& out) {
    while (avcodec_receive_frame(codec, frame) >= 0) out.frameHashes.push_back(hashPlane(frame));
  }
};

}  // namespace

bool probeVideo(const std::string& path, VideoProbe& out, std::string& error) {
  out = VideoProbe{};
  Decoder d;
  if (avformat_open_input(&d.container, path.c_str(), nullptr, nullptr) < 0 ||
      avformat_find_stream_info(d.container, nullptr) < 0)
    return (error = "'" + path + "': not a readable video file", false);
  const int stream = av_find_best_stream(d.container, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  if (stream < 0) return (error = "'" + path + "': no video stream", false);
  const AVCodecParameters* par = d.container->streams[stream]->codecpar;
  const AVCodec* decoder = avcodec_find_decoder(par->codec_id);
  d.codec = avcodec_alloc_context3(decoder);
  if (decoder == nullptr || d.codec == nullptr || avcodec_parameters_to_context(d.codec, par) < 0 ||
      avcodec_open2(d.codec, decoder, nullptr) < 0)
    return (error = "'" + path + "': no decoder for its codec", false);
  out.codec = avcodec_get_name(par->codec_id);
  out.width = par->width;
  out.height = par->height;
  out.fps = av_q2d(d.container->streams[stream]->r_frame_rate);
  while (av_read_frame(d.container, d.packet) >= 0) {
    if (d.packet->stream_index == stream && avcodec_send_packet(d.codec, d.packet) >= 0) d.receive(out);
    av_packet_unref(d.packet);
  }
  avcodec_send_packet(d.codec, nullptr);
  d.receive(out);
  return true;
}

}  // namespace varsim::media
