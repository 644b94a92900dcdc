#!/usr/bin/env bash
# Layering check by grep (ARCHITECTURE.md, dependency rule), run by ctest (layering_grep): prints every
# forbidden #include under ROOT (default: the repository), and every dynamic_cast to a scene type under
# ui/, as file:line: rule, then "layering: N violations"; exits 1 when N > 0. The build enforces the same rules for project headers (per-layer include paths);
# this also covers system headers (GL, GLFW, ImGui) that every target could reach.
set -uo pipefail
root=${1:-$(dirname "$0")/..}
cd "$root" || exit 2
count=0

# check DIR RULE REGEX [ALLOWED]: includes under DIR matching REGEX (and not ALLOWED) are violations.
check() {
  local dir=$1 rule=$2 regex=$3 allowed=${4:-'^$'} hits
  [ -e "$dir" ] || return 0
  hits=$(grep -rnHE --include='*.h' --include='*.cpp' "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($regex)" \
           "$dir" | grep -vE "$allowed")
  [ -z "$hits" ] && return 0
  while IFS= read -r line; do echo "$line   <- $rule"; done <<< "$hits"
  count=$((count + $(wc -l <<< "$hits")))
}

gui='GL/|GLFW/|glad/|imgui|backends/|glm/|stb_'
parsers='urdf_|tinyxml|console_bridge/'  # model-format parsers: import/ only
check engine "engine/ uses Eigen and SuiteSparse only" "$gui|$parsers|coin/|Ip[A-Z]|import/|media/|plan/|render/|scenes/|study/|ui/"
check scenes "scenes/ never see the planner, the study or video encoding (they see scenes/)" "coin/|Ip[A-Z]|media/|plan/|study/"
check plan "plan/ uses the engine, scenes and Ipopt only" "$gui|$parsers|import/|media/|render/|study/|ui/"
check study "study/ uses the engine and scenes only" "$gui|$parsers|coin/|Ip[A-Z]|import/|media/|plan/|render/|ui/"
check import "import/ uses the engine and the parsers only" "$gui|render/|scenes/|ui/"
check render "render/ knows no physics, scenes or UI" "GLFW/|imgui|backends/|$parsers|engine/|import/|scenes/|ui/"
check scenes "scenes/ fill render/draw_list.h only; no GL, no ui/; parsers through import/" "$gui|$parsers|render/|ui/" \
  '"render/draw_list\.h"'
check media "media/ knows frames only: FFmpeg, no GL, physics, scenes or UI" "$gui|$parsers|EGL/|engine/|import/|plan/|render/|scenes/|study/|ui/"
check render "render/ creates no contexts and encodes nothing (EGL in ui/video, FFmpeg in media/)" "EGL/|libav|media/"
check python "python/ (the bindings) uses engine, import, scenes, plan and study: no GL, render/ or ui/" "$gui|$parsers|render/|ui/"
for lower in engine import render scenes plan study ui; do
  check "$lower" "nothing includes python/ (the bindings are the top of their stack)" 'python/'
done
for headless in ui/core ui/input ui/plot ui/headless_runner.h ui/headless_runner.cpp ui/plan_command.h ui/plan_command.cpp ui/run_frames.h ui/run_frames.cpp; do
  check "$headless" "$headless is headless: no GL, GLFW, ImGui, render/ or parsers" "$gui|$parsers|render/|ui/app/"
done

# ui/ draws scene panels from data (Scene::panels) and never casts to a concrete scene type.
casts=$( [ -d ui ] && grep -rnHE --include='*.h' --include='*.cpp' 'dynamic_cast<[[:space:]]*(const[[:space:]]+)?[A-Za-z_:]*Scene[[:space:]]*[*&]' ui)
if [ -n "$casts" ]; then
  while IFS= read -r line; do echo "$line   <- ui/ never casts to a scene type (declare a panel instead)"; done <<< "$casts"
  count=$((count + $(wc -l <<< "$casts")))
fi

echo "layering: $count violations"
[ "$count" -eq 0 ]
