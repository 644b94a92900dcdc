#!/usr/bin/env bash
# Makes the README's media with `varsim run --video/--frames` (headless, no display needed):
# docs/media/ladder_whiplash.gif (the 20-link ladder falling and whipping, 4 s at 15 fps, 480x270) and
# docs/media/helicopter.png (the helicopter scene 2 s in, 1280x720). Usage: scripts/make_media.sh [VARSIM]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
varsim=${1:-$root/build/ui/varsim}
out=$root/docs/media
mkdir -p "$out"
"$varsim" run ladder --set links=20 --duration 4 --fps 15 --size 480x270 --video "$out/ladder_whiplash.gif"
frames=$(mktemp -d)
trap 'rm -rf "$frames"' EXIT
"$varsim" run helicopter --duration 2 --fps 1 --size 1280x720 --frames "$frames"
cp "$frames/frame_000002.png" "$out/helicopter.png"
echo "wrote $out/ladder_whiplash.gif $out/helicopter.png"
