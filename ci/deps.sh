#!/usr/bin/env bash
# Installs what building and testing dyng needs on Debian bookworm (apt-get, as root).
# Only missing packages are installed, so a second run takes a moment.
set -euo pipefail

packages=(
  cmake ninja-build g++            # build
  libgtest-dev libgmock-dev        # C++ tests
  libbenchmark-dev                 # benchmarks (release preset)
  zlib1g-dev                       # gzip input files
  libcli11-dev                     # the command line, apps/dyng
  clang libclang-rt-14-dev         # libFuzzer targets (cpp/fuzz), the tsan preset
  libomp-14-dev                    # the tsan preset: LLVM's OpenMP runtime and its Archer tool
  git python3 python3-venv python3-dev  # python3-*: ci/python.sh
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [[ "$status" == installed ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "ci/deps.sh: all ${#packages[@]} packages present"
  exit 0
fi

echo "ci/deps.sh: installing ${missing[*]}"
sudo=()
if [[ $(id -u) != 0 ]]; then
  command -v sudo >/dev/null || { echo "ci/deps.sh: run as root (or install sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
