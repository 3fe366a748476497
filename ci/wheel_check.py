#!/usr/bin/env python3
"""Checks dyng's wheels before anyone installs them: the CPU wheel dyng-*.whl and the CUDA plugin
wheels dyng_cu12-*.whl / dyng_cu13-*.whl, recognised by their file names.

    python3 ci/wheel_check.py [--max-mb 90] [--version X.Y.Z] WHEEL...

Every wheel: the size budget, the file name and its tags (cp312-abi3, or cp311-cp311 from a 3.11
build; linux or manylinux x86_64), the module and __init__.py, METADATA's name and version, and no
bundled CUDA driver, runtime or NVIDIA library, neither as a file nor as a DT_NEEDED entry of any
ELF file in the wheel (read from its dynamic section by the small ELF reader below: no package
needed). A plugin wheel also: only dyng_cu<N>/ and dyng_cu<N>.libs/ beside its .dist-info,
a module that exports nothing but PyInit__core,
Requires-Dist exactly dyng==<its version>, the entry point [dyng.backends] cu<N> = dyng_cu<N> and
nothing else, the licence files (LICENSE, THIRD_PARTY_LICENSES_CUDA.txt, NVIDIA_CUDA_EULA.txt).
The CPU wheel also: the extras cu12 / cu13 requiring dyng-cu<N>==<its version>.
See docs/wheels.md and docs/adr/0010-cuda-plugin-wheels.md. Exit status 1 on any problem.
"""

from __future__ import annotations

import argparse
import configparser
import re
import struct
import sys
import zipfile
from email.parser import HeaderParser
from pathlib import Path, PurePosixPath

MAX_MB = 90  # megabytes of 10^6 bytes
PLUGIN_LICENSE_FILES = ("LICENSE", "THIRD_PARTY_LICENSES_CUDA.txt", "NVIDIA_CUDA_EULA.txt")
# Libraries a wheel must neither carry nor need: the user's driver, a CUDA runtime (the plugins
# link it statically), NVIDIA's driver-side libraries.
FORBIDDEN = re.compile(r"^(libcuda\.|libcuda-|libcudart|libnvidia-)")
WHEEL_NAME = re.compile(r"^(?P<dist>[A-Za-z0-9_.]+)-(?P<version>[^-]+)(-\d[^-]*)?"
                        r"-(?P<py>[^-]+)-(?P<abi>[^-]+)-(?P<plat>[^-]+)\.whl$")
PLATFORM = re.compile(r"^(linux_x86_64|manylinux_\d+_\d+_x86_64|manylinux(1|2010|2014)_x86_64)$")


# ---- ELF: the DT_NEEDED entries of a shared object --------------------------------------------
def elf_class(data: bytes) -> tuple[int, str]:
    """(32 or 64, the struct byte-order prefix) of an ELF file."""
    if data[:4] != b"\x7fELF":
        raise ValueError("not an ELF file")
    bits = {1: 32, 2: 64}.get(data[4])
    order = {1: "<", 2: ">"}.get(data[5])
    if bits is None or order is None:
        raise ValueError("unknown ELF class or byte order")
    return bits, order


def elf_needed(data: bytes) -> list[str]:
    """The DT_NEEDED names of an ELF file, read as the loader does: the PT_DYNAMIC segment, and
    its DT_STRTAB address mapped to a file offset through the PT_LOAD segments."""
    bits, order = elf_class(data)
    if bits == 64:
        phoff, = struct.unpack_from(order + "Q", data, 0x20)
        phentsize, phnum = struct.unpack_from(order + "HH", data, 0x36)
        ph = order + "IIQQQQQQ"  # type, flags, offset, vaddr, paddr, filesz, memsz, align
        dyn = order + "qQ"
    else:
        phoff, = struct.unpack_from(order + "I", data, 0x1C)
        phentsize, phnum = struct.unpack_from(order + "HH", data, 0x2A)
        ph = order + "IIIIIIII"  # type, offset, vaddr, paddr, filesz, memsz, flags, align
        dyn = order + "iI"
    loads: list[tuple[int, int, int]] = []  # (vaddr, offset, filesz)
    dynamic: tuple[int, int] | None = None  # (offset, size)
    for i in range(phnum):
        f = struct.unpack_from(ph, data, phoff + i * phentsize)
        if bits == 64:
            p_type, _, p_offset, p_vaddr, _, p_filesz, _, _ = f
        else:
            p_type, p_offset, p_vaddr, _, p_filesz, _, _, _ = f
        if p_type == 1:  # PT_LOAD
            loads.append((p_vaddr, p_offset, p_filesz))
        elif p_type == 2:  # PT_DYNAMIC
            dynamic = (p_offset, p_filesz)
    if dynamic is None:
        return []  # a static executable or an object without dynamic section needs nothing
    entries: list[tuple[int, int]] = []
    step = struct.calcsize(dyn)
    for off in range(dynamic[0], dynamic[0] + dynamic[1] - step + 1, step):
        tag, val = struct.unpack_from(dyn, data, off)
        if tag == 0:  # DT_NULL
            break
        entries.append((tag, val))
    strtab = next((v for t, v in entries if t == 5), None)  # DT_STRTAB (an address)
    if strtab is None:
        raise ValueError("dynamic section without DT_STRTAB")
    base = next((off + strtab - va for va, off, size in loads if va <= strtab < va + size), None)
    if base is None:
        raise ValueError("DT_STRTAB lies outside every PT_LOAD segment")
    names = []
    for tag, val in entries:
        if tag == 1:  # DT_NEEDED
            end = data.index(b"\0", base + val)
            names.append(data[base + val:end].decode())
    return names


def elf_exports(data: bytes) -> list[str]:
    """The symbols an ELF file exports: defined entries of .dynsym (the section headers) with
    global, weak or GNU-unique binding and default or protected visibility."""
    bits, order = elf_class(data)
    if bits == 64:
        shoff, = struct.unpack_from(order + "Q", data, 0x28)
        shentsize, shnum = struct.unpack_from(order + "HH", data, 0x3A)
        sh, sym = order + "IIQQQQIIQQ", order + "IBBHQQ"
    else:
        shoff, = struct.unpack_from(order + "I", data, 0x20)
        shentsize, shnum = struct.unpack_from(order + "HH", data, 0x2E)
        sh, sym = order + "IIIIIIIIII", order + "IIIBBH"
    sections = [struct.unpack_from(sh, data, shoff + i * shentsize) for i in range(shnum)]
    names: list[str] = []
    for s in sections:
        if s[1] != 11:  # SHT_DYNSYM
            continue
        offset, size, link = s[4], s[5], s[6]
        strtab = sections[link][4]
        step = struct.calcsize(sym)
        for off in range(offset + step, offset + size - step + 1, step):  # entry 0 is null
            f = struct.unpack_from(sym, data, off)
            st_name, info, other, shndx = (f[0], f[1], f[2], f[3]) if bits == 64 else (f[0], f[3], f[4], f[5])
            if shndx != 0 and (info >> 4) in (1, 2, 10) and (other & 3) in (0, 3):
                end = data.index(b"\0", strtab + st_name)
                names.append(data[strtab + st_name:end].decode())
    return names


# ---- the checks -------------------------------------------------------------------------------
def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement(line: str) -> tuple[str, str | None]:
    """'dyng-cu13==0.1.0; extra == "cu13"' -> ('dyng-cu13==0.1.0', 'cu13')."""
    spec, _, marker = line.partition(";")
    extra = re.search(r"""extra\s*==\s*['"]([^'"]+)['"]""", marker)
    return re.sub(r"\s+", "", spec), (extra.group(1) if extra else None)


def check_wheel(path: Path, max_mb: float = MAX_MB, version: str | None = None) -> tuple[list[str], list[str]]:
    """(problems, notes) of one wheel; no problems means it passes."""
    problems: list[str] = []
    notes: list[str] = []
    m = WHEEL_NAME.match(path.name)
    if not m:
        return [f"{path.name}: not a wheel file name"], notes
    dist, wversion = m["dist"], m["version"]
    plugin = re.fullmatch(r"dyng_(cu1[23])", dist)
    if dist != "dyng" and not plugin:
        return [f"{path.name}: neither dyng nor a plugin dyng_cu12 / dyng_cu13"], notes
    package = dist
    if version is not None and wversion != version:
        problems.append(f"version {wversion} in the file name, expected {version}")

    size = path.stat().st_size
    notes.append(f"{size / 1e6:.2f} MB")
    if size > max_mb * 1e6:
        problems.append(f"{size / 1e6:.1f} MB is over the budget of {max_mb} MB")
    if (m["py"], m["abi"]) not in (("cp312", "abi3"), ("cp311", "cp311")):
        problems.append(f"tags {m['py']}-{m['abi']}: expected cp312-abi3 (or cp311-cp311 from a 3.11 build)")
    for plat in m["plat"].split("."):
        if not PLATFORM.match(plat):
            problems.append(f"platform tag {plat}: expected linux or manylinux x86_64")

    with zipfile.ZipFile(path) as z:
        names = [n for n in z.namelist() if not n.endswith("/")]
        infos = sorted({n.split("/", 1)[0] for n in names if n.split("/", 1)[0].endswith(".dist-info")})
        info = f"{dist}-{wversion}.dist-info"
        if infos != [info]:
            problems.append(f"the .dist-info directories {infos} are not just {info}")
            if len(infos) == 1:
                info = infos[0]  # still read its METADATA

        def read(name: str) -> str | None:
            return z.read(name).decode() if name in names else None

        for n in names:
            top = n.split("/", 1)[0]
            if plugin:
                if top not in (package, f"{package}.libs", info):
                    problems.append(f"{n}: a plugin wheel holds only {package}/, {package}.libs/ and {info}/")
            elif re.fullmatch(r"dyng_cu\d+(\.libs)?", top):
                problems.append(f"{n}: the dyng wheel must not contain a plugin")
            if FORBIDDEN.match(PurePosixPath(n).name):
                problems.append(f"{n}: bundles a CUDA driver / runtime / NVIDIA library")
        if f"{package}/__init__.py" not in names:
            problems.append(f"{package}/__init__.py is missing")
        modules = [n for n in names if re.fullmatch(rf"{package}/_core\.[^/]*so", n)]
        if not modules:
            problems.append(f"the module {package}/_core.*.so is missing")

        for n in names:
            base = PurePosixPath(n).name
            if not (base.endswith(".so") or ".so." in base):
                continue
            data = z.read(n)
            if data[:4] != b"\x7fELF":
                continue
            try:
                needed = elf_needed(data)
            except (ValueError, struct.error) as e:
                problems.append(f"{n}: cannot read its dynamic section ({e})")
                continue
            for lib in needed:
                if FORBIDDEN.match(lib):
                    problems.append(f"{n} needs {lib} (DT_NEEDED): the CUDA runtime must be linked "
                                    "statically and the driver loaded at run time")
            if n in modules:
                notes.append(f"{n} DT_NEEDED: {', '.join(needed) or 'none'}")
            if plugin and n in modules:
                # Only the entry point: nothing of the static CUDA runtime, libstdc++ or libdyng.
                extra = sorted(set(elf_exports(data)) - {"PyInit__core"})
                if extra:
                    problems.append(f"{n} exports {len(extra)} symbols besides PyInit__core "
                                    f"(e.g. {', '.join(extra[:3])})")

        meta_text = read(f"{info}/METADATA")
        if meta_text is None:
            problems.append(f"{info}/METADATA is missing")
            return problems, notes
        meta = HeaderParser().parsestr(meta_text)
        if _canonical(meta.get("Name", "")) != _canonical(dist):
            problems.append(f"METADATA Name {meta.get('Name')!r} does not match the file name")
        if meta.get("Version") != wversion:
            problems.append(f"METADATA Version {meta.get('Version')!r} differs from the file name's {wversion}")
        requires = [_requirement(r) for r in meta.get_all("Requires-Dist") or []]
        extras = set(meta.get_all("Provides-Extra") or [])
        licenses = {PurePosixPath(n).name for n in names if n.startswith(f"{info}/")}
        entry_points = configparser.ConfigParser(delimiters=("=",))
        entry_points.optionxform = str  # type: ignore[assignment,method-assign]
        entry_points.read_string(read(f"{info}/entry_points.txt") or "")

        if plugin:
            cu = plugin.group(1)
            if [r for r, _ in requires] != [f"dyng=={wversion}"] or any(e for _, e in requires):
                problems.append(f"Requires-Dist must be exactly dyng=={wversion}, not "
                                f"{meta.get_all('Requires-Dist')}")
            if extras:
                problems.append(f"a plugin offers no extras, this one has {sorted(extras)}")
            for f in PLUGIN_LICENSE_FILES:
                if f not in licenses:
                    problems.append(f"the licence file {f} is missing from {info}")
            groups = {s: dict(entry_points[s]) for s in entry_points.sections()}
            if groups != {"dyng.backends": {cu: package}}:
                problems.append(f"entry points must be exactly [dyng.backends] {cu} = {package}, "
                                f"not {groups}")
        else:
            if "LICENSE" not in licenses:
                problems.append(f"the licence file LICENSE is missing from {info}")
            for cu in ("cu12", "cu13"):
                pinned = [r for r, e in requires if e == cu]
                if cu not in extras or pinned != [f"dyng-{cu}=={wversion}"]:
                    problems.append(f"the extra {cu} must require exactly dyng-{cu}=={wversion}, "
                                    f"not {pinned or 'nothing'}")
            if entry_points.has_section("dyng.backends"):
                problems.append("the dyng wheel must not register a dyng.backends entry point")
    return problems, notes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("wheels", nargs="+", type=Path)
    ap.add_argument("--max-mb", type=float, default=MAX_MB, help=f"size budget (default {MAX_MB})")
    ap.add_argument("--version", help="the version every wheel must have")
    args = ap.parse_args(argv)
    failed = 0
    for w in args.wheels:
        problems, notes = check_wheel(w, args.max_mb, args.version)
        if problems:
            failed += 1
            print(f"FAIL {w.name}")
            for p in problems:
                print(f"  - {p}")
        else:
            print(f"ok   {w.name}: {'; '.join(notes)}")
    print(f"wheel_check: {len(args.wheels) - failed} of {len(args.wheels)} wheels ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
