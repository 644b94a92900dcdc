#!/usr/bin/env bash
# Makes the README's media with `varsim run --video/--frames` (headless, no display needed):
#   docs/media/ladder_whiplash.gif  the 20-link ladder falling and whipping (looping GIF, HUD on), seen
#                                   face-on from a camera that holds the whole swing
#   docs/media/helicopter.png       the helicopter in the canyon (assets/scenes/helicopter_canyon.json) 2 s in
# Usage: scripts/make_media.sh [--varsim BIN] [--size WxH] [--fps F] [--seconds S]
#   defaults: build/ui/varsim, 640x360, 15 fps, 6 s (the GIF; the still has the same size). The GIF's size
#   grows with all three: at the defaults it is ~0.2 MB.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
varsim=$root/build/ui/varsim
size=640x360 fps=15 seconds=6
while [ $# -gt 0 ]; do
  case $1 in
    --varsim) varsim=$2 ;;
    --size) size=$2 ;;
    --fps) fps=$2 ;;
    --seconds) seconds=$2 ;;
    *) echo "make_media.sh: unknown option '$1'; allowed --varsim BIN, --size WxH, --fps F, --seconds S" >&2; exit 2 ;;
  esac
  shift 2
done
out=$root/docs/media
mkdir -p "$out"
# The ladder hangs from the origin and swings through x in [-20, 20] m, z in [-20, 0] m: the camera looks
# at the middle of that from the side (the scene's default view frames the ladder at rest, at the top).
"$varsim" run ladder --set links=20 --duration "$seconds" --fps "$fps" --size "$size" \
  --camera target=2:0:-8,distance=44,azimuth=-90,elevation=6 --video "$out/ladder_whiplash.gif"
frames=$(mktemp -d)
trap 'rm -rf "$frames"' EXIT
"$varsim" run "$root/assets/scenes/helicopter_canyon.json" --duration 2 --fps 1 --size "$size" --frames "$frames"
cp "$frames/frame_000002.png" "$out/helicopter.png"
ls -l "$out/ladder_whiplash.gif" "$out/helicopter.png"
