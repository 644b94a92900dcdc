#!/usr/bin/env bash
# Installs the Debian 12 packages varsim builds and tests with (idempotent; skips what is present).
set -euo pipefail
pkgs=(build-essential cmake pkg-config libeigen3-dev libglfw3-dev libimgui-dev python3-glad libglm-dev
      libsuitesparse-dev doctest-dev nlohmann-json3-dev libstb-dev xvfb xauth mesa-utils libgl1-mesa-dri
      libode-dev libmujoco-dev liburdfdom-dev coinor-libipopt-dev fonts-dejavu-core
      python3-dev pybind11-dev python3-pybind11 python3-numpy python3-pytest python3-matplotlib)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
