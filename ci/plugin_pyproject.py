#!/usr/bin/env python3
"""Turn a disposable copy of dyng's source tree into the source of a CUDA plugin wheel.

    python3 ci/plugin_pyproject.py --plugin cu13 --project-dir TREE [--cuda-root DIR | --cuda-eula PATH]
                                   [--cuda-architectures LIST]

TREE is a throw-away copy (``git archive HEAD | tar -x -C TREE``), never the checkout: the script
overwrites TREE/pyproject.toml with the plugin's, copies the plugin package
python/plugin/dyng_plugin to python/plugin/dyng_cu<N> (scikit-build-core wants a package's
directory to carry its name) and copies the CUDA toolkit's EULA to TREE/NVIDIA_CUDA_EULA.txt,
which the wheel must carry with the static CUDA runtime. Then ``pip wheel TREE`` builds dyng-cu<N>.

The plugin's pyproject.toml is rendered from the root one (parsed with tomllib), so the build
system, the version source, the licence and the scikit-build-core settings have one source; see
docs/adr/0010-cuda-plugin-wheels.md. The TOML is written by the small writer below (the standard
library reads TOML but does not write it; this needs no package installed).
"""

from __future__ import annotations

import argparse
import copy
import glob
import re
import shutil
import sys
import tomllib
from pathlib import Path
from typing import Any

PLUGINS = ("cu12", "cu13")
# Licence files of a plugin wheel (besides what the CPU wheel has): the committed summary and the
# EULA of the toolkit the wheel is built with (copied in by this script, never committed).
CUDA_LICENSE_FILES = ("THIRD_PARTY_LICENSES_CUDA.txt", "NVIDIA_CUDA_EULA.txt")
# What the module adds to dyng's licence: CUB (BSD-3-Clause), libcu++ (Apache-2.0 WITH
# LLVM-exception), the static CUDA runtime (NVIDIA's EULA), libstdc++/libgcc linked statically.
LICENSE_ADDITIONS = ("BSD-3-Clause", "Apache-2.0 WITH LLVM-exception",
                     "GPL-3.0-or-later WITH GCC-exception-3.1", "LicenseRef-NVIDIA-CUDA-EULA")


class RenderError(Exception):
    """Something the tree or the toolkit lacks; the message says what and how to fix it."""


def plugin_major(plugin: str) -> int:
    if plugin not in PLUGINS:
        raise RenderError(f"--plugin must be one of {', '.join(PLUGINS)}, not {plugin!r}")
    return int(plugin[2:])


def render(root: dict[str, Any], plugin: str, cuda_architectures: str = "release") -> dict[str, Any]:
    """The plugin's pyproject (a dict) from the parsed root pyproject.toml."""
    major = plugin_major(plugin)
    package = f"dyng_{plugin}"
    rp = root["project"]
    rs = root["tool"]["scikit-build"]
    dynamic = rp.get("dynamic", [])
    if "version" not in dynamic or "version" not in rs.get("metadata", {}):
        raise RenderError("the root pyproject.toml must take the version from dynamic metadata "
                          "([tool.scikit-build.metadata.version]): the plugin pins dyng to it")

    project: dict[str, Any] = {
        "name": f"dyng-{plugin}",
        # The plugin's version comes from the same provider as dyng's, and so does its pin.
        "dynamic": ["version", "dependencies"],
        "description": f"CUDA {major} backend of dyng, installed with pip install \"dyng[{plugin}]\"",
        "readme": {"file": "python/plugin/README.md", "content-type": "text/markdown"},
    }
    license_text = rp.get("license", {}).get("text")
    if not isinstance(license_text, str):
        raise RenderError("the root pyproject.toml must have license = { text = \"...\" }")
    project["license"] = {"text": " AND ".join([license_text, *LICENSE_ADDITIONS])}
    for key in ("authors", "maintainers", "keywords", "urls", "requires-python"):
        if key in rp:
            project[key] = copy.deepcopy(rp[key])
    # The plugin package is private (no stubs, no py.typed): no Typing classifier.
    classifiers = [c for c in rp.get("classifiers", []) if not c.startswith("Typing ::")]
    classifiers += ["Environment :: GPU :: NVIDIA CUDA", f"Environment :: GPU :: NVIDIA CUDA :: {major}"]
    project["classifiers"] = classifiers
    # Only the entry point that dyng's backend selection reads; no console script, no extras.
    project["entry-points"] = {"dyng.backends": {plugin: package}}

    skb = copy.deepcopy(rs)
    metadata = {"version": skb["metadata"]["version"],
                "dependencies": {"provider": "scikit_build_core.metadata.template",
                                 "result": ["dyng=={project[version]}"]}}
    skb["metadata"] = metadata
    wheel = skb.setdefault("wheel", {})
    wheel["packages"] = [f"python/plugin/{package}"]
    wheel["license-files"] = ["LICENSE", *CUDA_LICENSE_FILES]
    skb.setdefault("install", {})["components"] = ["python"]
    skb["build-dir"] = f"build/{plugin}/{{wheel_tag}}"
    defines = dict(skb.get("cmake", {}).get("define", {}))
    defines.update({
        "DYNG_BUILD_APPS": "OFF",  # the CLI comes with the dyng wheel
        "DYNG_ENABLE_CUDA": "ON",
        "DYNG_ENABLE_OPENMP": "ON",
        "DYNG_PYTHON_PLUGIN": plugin,
        "DYNG_CUDA_RUNTIME": "static",
        "DYNG_CUDA_ARCHITECTURES": cuda_architectures,
    })
    skb.setdefault("cmake", {})["define"] = defines

    return {"build-system": copy.deepcopy(root["build-system"]), "project": project,
            "tool": {"scikit-build": skb}}


# ---- a small TOML writer: tables of strings, booleans, integers, lists and inline tables -------
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
    return k if _BARE_KEY.match(k) else _string(k)


def _string(s: str) -> str:
    out = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    if any(ord(c) < 0x20 for c in out):
        raise ValueError(f"control character in TOML string {s!r}")
    return f'"{out}"'


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def dumps(doc: dict[str, Any]) -> str:
    """TOML for a dict whose nested dicts become [tables] (lists of tables are not needed here)."""
    lines: list[str] = []

    def table(path: list[str], t: dict[str, Any]) -> None:
        scalars = {k: v for k, v in t.items() if not isinstance(v, dict)}
        subtables = {k: v for k, v in t.items() if isinstance(v, dict)}
        if path and (scalars or not subtables):
            if lines:
                lines.append("")
            lines.append("[" + ".".join(_key(p) for p in path) + "]")
        for k, v in scalars.items():
            lines.append(f"{_key(k)} = {_value(v)}")
        for k, v in subtables.items():
            table([*path, k], v)

    table([], doc)
    return "\n".join(lines) + "\n"


# ---- the tree ----------------------------------------------------------------------------------
def find_eula(cuda_root: Path, doc_dir: Path = Path("/usr/share/doc")) -> Path:
    """The EULA of a CUDA toolkit: EULA.txt of NVIDIA's runfile installer; the licence of the
    nvidia-cuda-runtime wheel in a toolkit assembled from NVIDIA's Python wheels; or, for a
    /usr/local/cuda-X.Y installed from NVIDIA's Debian packages, the copyright file of its
    cuda-cudart-dev-X-Y package (the EULA's text)."""
    candidates = [cuda_root / "EULA.txt"]
    for pattern in ("dist-info/nvidia_cuda_runtime*/licenses/License.txt",
                    "dist-info/nvidia_cuda_runtime*/License.txt"):
        candidates += sorted(Path(p) for p in glob.glob(str(cuda_root / pattern)))
    installed = re.fullmatch(r"cuda-(\d+)\.(\d+)", cuda_root.resolve().name)
    if installed:
        x, y = installed.groups()
        candidates += [doc_dir / f"cuda-cudart-dev-{x}-{y}" / "copyright",
                       doc_dir / f"cuda-cudart-{x}-{y}" / "copyright"]
    for c in candidates:
        if c.is_file() and c.stat().st_size > 0:
            return c
    raise RenderError(
        f"no CUDA EULA for the toolkit {cuda_root} (looked for EULA.txt, "
        "dist-info/nvidia_cuda_runtime*/licenses/License.txt and the Debian package's "
        f"{doc_dir}/cuda-cudart-dev-X-Y/copyright); a plugin wheel must carry the EULA of the "
        "toolkit whose static runtime it links: pass --cuda-eula PATH")


def prepare(tree: Path, plugin: str, eula: Path, cuda_architectures: str = "release") -> None:
    """Render TREE/pyproject.toml, copy the plugin package and the EULA into TREE."""
    for needed in ("pyproject.toml", "LICENSE", "THIRD_PARTY_LICENSES_CUDA.txt",
                   "python/plugin/README.md", "python/plugin/dyng_plugin/__init__.py"):
        if not (tree / needed).is_file():
            raise RenderError(f"{tree / needed} is missing: --project-dir must be a copy of dyng's "
                              "source tree (git archive HEAD)")
    if not eula.is_file():
        raise RenderError(f"the CUDA EULA {eula} does not exist")
    root = tomllib.loads((tree / "pyproject.toml").read_text(encoding="utf-8"))
    if root.get("project", {}).get("name") != "dyng":
        raise RenderError(f"{tree / 'pyproject.toml'} is not dyng's root pyproject.toml (already rendered?)")
    text = dumps(render(root, plugin, cuda_architectures))
    header = (f"# Rendered by ci/plugin_pyproject.py --plugin {plugin} from dyng's pyproject.toml;\n"
              "# a disposable build tree, not to be committed.\n")
    (tree / "pyproject.toml").write_text(header + text, encoding="utf-8")
    target = tree / "python" / "plugin" / f"dyng_{plugin}"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(tree / "python" / "plugin" / "dyng_plugin", target,
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copyfile(eula, tree / "NVIDIA_CUDA_EULA.txt")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plugin", required=True, choices=PLUGINS)
    ap.add_argument("--project-dir", required=True, type=Path, help="a disposable source tree")
    eula = ap.add_mutually_exclusive_group(required=True)
    eula.add_argument("--cuda-root", type=Path, help="the CUDA toolkit the wheel is built with")
    eula.add_argument("--cuda-eula", type=Path, help="the toolkit's EULA, if not in the toolkit")
    ap.add_argument("--cuda-architectures", default="release",
                    help="DYNG_CUDA_ARCHITECTURES (default release; e.g. 90 for a quick test build)")
    args = ap.parse_args(argv)
    try:
        source = args.cuda_eula if args.cuda_eula else find_eula(args.cuda_root)
        prepare(args.project_dir, args.plugin, source, args.cuda_architectures)
    except RenderError as e:
        print(f"plugin_pyproject: {e}", file=sys.stderr)
        return 1
    print(f"plugin_pyproject: {args.project_dir} is the source of dyng-{args.plugin} "
          f"(architectures {args.cuda_architectures}, EULA from {source})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
