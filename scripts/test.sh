#!/usr/bin/env bash
# Installs what is missing, builds and runs every test: a Release build (engine, scenes, headless
# runner, app smoke tests under Xvfb) and an AddressSanitizer+UndefinedBehaviorSanitizer build.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc)

echo "== Release build and tests"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j"$jobs")

echo "== ASan+UBSan build and tests"
# -O1 without debug info keeps the second build short; sanitizer reports still name functions.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DVARSIM_SANITIZE=ON -DVARSIM_BUILD_APP=OFF \
      -DVARSIM_BUILD_BENCH=OFF > /dev/null
cmake --build build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 VARSIM_SANITIZED=1 \
   ctest --output-on-failure -j"$jobs")
echo "== all tests passed"
