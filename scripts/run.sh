#!/usr/bin/env bash
# Installs what is missing, builds the simulator alone (Release; no tests, no benchmarks) and starts it.
# Arguments go to varsim.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build -j"$(nproc)" --target varsim
exec ./build/ui/varsim "$@"
