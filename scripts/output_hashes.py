"""A hash of every command's output on fixed seeds: shows that a change left behaviour alone.

    python scripts/output_hashes.py [--only SUBSTRING] [--out FILE.json]

Runs each command of COMMANDS below (every command, every engine family, every policy, small
sizes, fixed seeds) in an empty folder with this checkout's ``python -m binokel_sim.cli``, and
prints one line per command: the SHA-256 of what it wrote (stdout, then every file it made, in
name order). Wall-clock fields (elapsed seconds, rates) are dropped from JSON first; nothing
else is. Compare two checkouts by running the script in each and diffing the JSON files::

    python scripts/output_hashes.py --out /tmp/before.json      # on the old commit
    python scripts/output_hashes.py --out /tmp/after.json       # on the new one
    diff /tmp/before.json /tmp/after.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HAND_80 = "AS AS TS KS KS QS JS JS AH TH TH QH AD KD JD JD AC TC KC JC"
HAND_48 = "AS TS KS QS QS JS 9S KH QH AD JD AC"
HAND_3A = "AS AS TS KS QS QS JS 9S AH KH QH AD JD KC QC"
HAND_4W = "AS AS TS KS QS QS JS AH KH QH AD"
HAND_72_3 = "AS AS TS TS KS QS QS JS 9S AH AH TH"

VARIANTS = ["four-hand-80", "two-hand-48", "three-hand-72", "four-hand-72",
            "three-hand-auction-48", "four-hand-widow-48", "swabian-3-40", "kreuz-4-40"]

COMMANDS: list[str] = ["variants", "variants --show two-hand-48"]
for _v in VARIANTS:
    COMMANDS += [
        f"meld-odds --variant {_v} --deals 20000 --seed 3 --format json",
        f"play --variant {_v} --deals 40 --seed 5 --format jsonl",
        f"play --variant {_v} --deals 40 --seed 5 --policy random --out deals.parquet",
        f"play --variant {_v} --deals 6 --seed 5 --policy sampling --samples-per-move 8 "
        "--format jsonl",
        f"duel --variant {_v} --a heuristic --b random --deals 400 --seed 2 --format json",
        f"duel --variant {_v} --a sampling --b heuristic --deals 8 --seed 2 "
        "--samples-per-move 8 --format json",
        f"match --variant {_v} --a heuristic --b random --games 20 --seed 4 --format json",
        f"play --variant {_v} --deals 3 --seed 1 --format text",
    ]
COMMANDS += [
    "play --variant sixty-six --deals 40 --seed 5 --format jsonl",
    "play --variant sixty-six --deals 40 --seed 5 --policy random --out deals.parquet",
    "play --variant sixty-six --deals 3 --seed 1 --format text",
    "duel --variant sixty-six --a heuristic --b random --deals 400 --seed 2 --format json",
    "match --variant sixty-six --a heuristic --b random --games 20 --seed 4 --format json",
    'deal-odds --variant sixty-six --hand "AH TH KH QS JD 9C" --turned AC --seat elder '
    "--deals 4000 --seed 7 --format json",
    "meld-odds --variant four-hand-80 --exact --format json",
    "meld-odds --variant two-hand-48 --exact --out - --format csv",
    f'analyze --variant four-hand-80 --hand "{HAND_80}" --format json',
    f'analyze --variant two-hand-48 --hand "{HAND_48}" --format json',
    f'bid-odds --hand "{HAND_80}" --deals 20000 --seed 7 --format json',
    f'bid-odds --hand "{HAND_80}" --deals 4000 --seed 7 --policy random --full --format json',
    f'bid-odds --hand "{HAND_80}" --deals 4000 --seed 7 --policy heuristic --format json',
    f'bid-odds --hand "{HAND_80}" --deals 4000 --seed 7 --known partner:"AH KH" --void left:D '
    "--format json",
    f'bid-odds --hand "{HAND_80}" --deals 2000 --seed 7 --auction "50 pass 51" --dealer right '
    "--format json",
    f'bid-odds --hand "{HAND_80}" --deals 2000 --seed 7 --policy heuristic --known left:"QD" '
    '--auction "50 51" --dealer partner --format json',
    f'bid-odds --hand "{HAND_80}" --deals 40 --seed 7 --policy sampling --samples-per-move 8 '
    "--format json",
    f'bid-odds --variant three-hand-auction-48 --hand "{HAND_3A}" --deals 4000 --seed 7 '
    "--format json",
    f'bid-odds --variant three-hand-auction-48 --hand "{HAND_3A}" --deals 16 --seed 7 '
    "--policy sampling --samples-per-move 8 --format json",
    f'bid-odds --variant four-hand-widow-48 --hand "{HAND_4W}" --deals 4000 --seed 7 '
    "--format json",
    f'deal-odds --variant two-hand-48 --hand "{HAND_48}" --turned 9H --seat dealer '
    "--deals 4000 --seed 7 --format json",
    f'deal-odds --variant two-hand-48 --hand "{HAND_48}" --turned 9H --seat dealer '
    "--deals 16 --seed 7 --policy sampling --samples-per-move 8 --format json",
    f'deal-odds --variant three-hand-72 --hand "{HAND_72_3}" --turned 9H --seat dealer '
    "--deals 4000 --seed 7 --format json",
    "duel --variant two-hand-48 --a heuristic+solver --b heuristic --deals 40 --seed 2 "
    "--format json",
    'solve --hand "AS TS KH QH JD 9C" --other "KS AH TD AD QC JC" --trump H --format json',
    "calibrate --deals 2000 --seed 3 --format json",
    "calibrate --variant three-hand-auction-48 --deals 1000 --seed 3 --format json",
    "report --variant four-hand-80 --deals 4000 --seed 1 --out rep",
    "report --variant two-hand-48 --deals 2000 --seed 1 --out rep",
    "report --variant three-hand-auction-48 --deals 2000 --seed 1 --out rep",
]
BATCH_FILES = {
    "hands.csv": f"hand,turned,seat\n{HAND_48},9H,dealer\n{HAND_48},QS,non-dealer\n",
    "hands80.txt": f"{HAND_80}\n",
    "hands3a.txt": f"{HAND_3A}\n",
}
COMMANDS += [
    "batch --variant two-hand-48 --hands-file hands.csv --deals 2000 --seed 1 --out odds.csv",
    "batch --variant four-hand-80 --hands-file hands80.txt --deals 2000 --seed 1 --out odds.json",
    "batch --variant three-hand-auction-48 --hands-file hands3a.txt --deals 2000 --seed 1 "
    "--out odds.parquet",
    "analyze --variant two-hand-48 --hands-file hands.csv --format jsonl",
]

# JSON keys that hold wall-clock figures (differ from run to run on the same code)
TIMING = re.compile(r"(second|elapsed|_per_s|rate|duration|wall)", re.IGNORECASE)


def _clean(value):
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items() if not TIMING.search(k)}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def _canonical(data: bytes) -> bytes:
    """JSON (or JSON lines) with timing keys dropped; anything else as it is."""
    text = data.decode("utf-8", errors="replace")
    try:
        return json.dumps(_clean(json.loads(text)), sort_keys=True).encode()
    except ValueError:
        pass
    lines = text.splitlines()
    try:
        return "\n".join(json.dumps(_clean(json.loads(x)), sort_keys=True)
                         for x in lines if x.strip()).encode()
    except ValueError:
        return data


def run(command: str, root: Path) -> tuple[str, str]:
    """The hash of ``command``'s output, and its exit status and stderr's last line when it
    failed."""
    with tempfile.TemporaryDirectory(prefix="hashes-") as tmp:
        folder = Path(tmp)
        for name, text in BATCH_FILES.items():
            (folder / name).write_text(text)
        before = set(os.listdir(folder))
        env = {**os.environ, "PYTHONPATH": str(root), "BINOKEL_SIM_COMPILE_NOTICE": "off"}
        done = subprocess.run([sys.executable, "-m", "binokel_sim.cli", *shlex.split(command)],
                              cwd=folder, env=env, capture_output=True)
        digest = hashlib.sha256(_canonical(done.stdout))
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.relative_to(folder).parts[0] not in before:
                digest.update(path.relative_to(folder).as_posix().encode())
                data = path.read_bytes()
                digest.update(_canonical(data) if path.suffix in (".json", ".jsonl") else data)
        status = "" if done.returncode == 0 else \
            f"exit {done.returncode}: {done.stderr.decode().strip().splitlines()[-1:]}"
        return digest.hexdigest()[:16], status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="only commands containing this text")
    parser.add_argument("--out", help="write the hashes as JSON here")
    args = parser.parse_args()
    out = {}
    for command in COMMANDS:
        if args.only and args.only not in command:
            continue
        digest, status = run(command, ROOT)
        out[command] = digest + (f" ({status})" if status else "")
        print(f"{out[command]}  {command}", flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
