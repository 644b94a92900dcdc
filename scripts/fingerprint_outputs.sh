#!/usr/bin/env bash
# Fingerprints every output a refactoring must leave byte-identical: the CSV of every scene with its defaults,
# of every preset in assets/scenes, of both recorded input files, of every plan problem with its defaults (trajectory and inputs)
# and of a small run of each integrator study. Prints one "sha256  name" line per output, so two binaries are
# compared with `diff <(scripts/fingerprint_outputs.sh OLD) <(scripts/fingerprint_outputs.sh NEW)`.
# Usage: scripts/fingerprint_outputs.sh path/to/varsim [STEPS]   (STEPS per scene run, default 600)
set -euo pipefail
bin=$(realpath "$1"); steps=${2:-600}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
cd "$root"
run() {  # run NAME ARGS...: the CSV of `varsim ARGS --csv` (exit code kept in the fingerprint)
  local name=$1; shift
  local rc=0
  "$bin" "$@" --csv "$out/$name.csv" > "$out/$name.log" 2>&1 || rc=$?
  echo "$(sha256sum < "$out/$name.csv" | cut -c1-64)  $name exit=$rc"
}
for s in $("$bin" list); do run "scene_$s" run "$s" --steps "$steps"; done
for f in assets/scenes/*.json; do run "preset_$(basename "$f" .json)" run "$f" --steps "$steps"; done
run input_helicopter run helicopter --input assets/inputs/helicopter_pad_landing.csv --steps 1200
run input_marionette run marionette --input assets/inputs/marionette_walk.csv --steps 1200
for p in assets/problems/*.json; do
  n=plan_$(basename "$p" .json)
  run "$n" plan "$p" --inputs "$out/$n.inputs.csv"
  # its comment line names the file itself (a temporary path here), so only the data lines are compared
  echo "$(grep -v "^#" "$out/$n.inputs.csv" | sha256sum | cut -c1-64)  $n.inputs"
done
for fig in fig3 fig4 fig5 fig5s; do run "study_$fig" study "$fig" --runs 2 --seed 7 --threads 1; done
