#!/usr/bin/env bash
# Installs what is missing, builds and runs every test: a Release build (engine, scenes, headless
# runner, app smoke tests under Xvfb) and an AddressSanitizer+UndefinedBehaviorSanitizer build.
# Prints the wall time of each phase at the end (docs/benchmarks.md keeps the measured table).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
phases=()
t0=$SECONDS
phase() { phases+=("$(printf '%-34s %4d s' "$1" $((SECONDS - t0)))"); t0=$SECONDS; }

./scripts/install-deps.sh
phase "install packages"

echo "== Release build and tests"
# Each test is compiled once, in the build that serves it (tests/CMakeLists.txt, VARSIM_TEST_SCOPE): the optimised
# build runs the app, the README's commands, video and the slow sweeps; the sanitized build runs every other test.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DVARSIM_TEST_SCOPE=release > /dev/null
cmake --build build -j"$jobs"
phase "Release build"
(cd build && ctest --output-on-failure -j"$jobs")
phase "Release tests"

echo "== ASan+UBSan build and tests"
# -O1 without debug info keeps the second build short; sanitizer reports still name functions.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DVARSIM_SANITIZE=ON -DVARSIM_BUILD_APP=OFF \
      -DVARSIM_TEST_SCOPE=sanitizer \
      -DVARSIM_BUILD_BENCH=OFF > /dev/null
cmake --build build-asan -j"$jobs"
phase "ASan+UBSan build"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 VARSIM_SANITIZED=1 \
   ctest --output-on-failure -j"$jobs")
phase "ASan+UBSan tests"
echo "== all tests passed"
printf '%s\n' "${phases[@]}"
