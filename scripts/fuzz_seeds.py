#!/usr/bin/env python3
"""The seed corpus and dictionary of `make fuzz` (tests/fuzz/config_input.h says what an input is).

    scripts/fuzz_seeds.py OUT_DIR     # OUT_DIR/<config>.in for every shipped config, OUT_DIR.dict

Each shipped config becomes one input: the selector byte of the loader hxsim would use for it
(cost configs hold `topologies:`, allocation configs `systems:`, NVSwitch-like systems name the
kind dgx2 or nvswitch_tree, everything else is a fabric-model system) and the file's text. The
dictionary holds every key and scalar value that appears in them, so that the fuzzer mutates with
the schema's own words rather than random bytes.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FABRIC, NVSWITCH, COST, ALLOC = 0, 1, 2, 3


def loader_of(text):
    if re.search(r"^topologies:", text, re.M):
        return COST
    if re.search(r"^systems:", text, re.M):
        return ALLOC
    if re.search(r"^\s+kind:\s*(dgx2|nvswitch_tree)\b", text, re.M):
        return NVSWITCH
    return FABRIC


def dict_char(b):
    """One byte as libFuzzer's dictionary syntax writes it: printable as is, else \\xNN."""
    return chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else "\\x%02x" % b


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1].rstrip("/")
    os.makedirs(out, exist_ok=True)
    words = set()
    seeds = 0
    for base, _, files in os.walk(os.path.join(ROOT, "configs")):
        for name in sorted(files):
            if not name.endswith(".yaml"):
                continue
            with open(os.path.join(base, name)) as f:
                text = f.read()
            rel = os.path.relpath(os.path.join(base, name), os.path.join(ROOT, "configs")).replace("/", "_")
            with open(os.path.join(out, rel[:-5] + ".in"), "wb") as f:
                f.write(bytes([loader_of(text)]) + text.encode())
            seeds += 1
            for line in text.splitlines():
                line = line.split("#", 1)[0]
                for key in re.findall(r"([A-Za-z_][A-Za-z0-9_]*):", line):
                    words.add(key + ":")
                for value in re.findall(r":\s*([^\s{}\[\],#][^{}\[\],#]*?)\s*(?:$|[,}\]])", line):
                    words.add(value)
    words.update(["\n#--set\n", "=", "topology.kind=", "- ", "[", "]", "{", "}", "~", "null", "-1", "1e308", "0x"])
    with open(out + ".dict", "w") as f:
        for w in sorted(words):
            f.write('"' + "".join(dict_char(b) for b in w.encode()) + '"\n')
    print(f"fuzz seeds: {seeds} configs in {out}/, {len(words)} words in {out}.dict")


if __name__ == "__main__":
    main()
