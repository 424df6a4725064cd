#!/usr/bin/env python3
"""Writes Fixtures/inspect/goldens.json: what `mockapns list|show|stats|expect|export --file` print for the
recordings in Fixtures/inspect/, run with the binary given (issue 26 made them stream; the goldens were made with
the binary from before, 8fcfd21, so InspectGoldenTests checks the streaming commands print exactly the same).

    python3 scripts/inspect-goldens.py path/to/mockapns

Only regenerate on purpose, when an output format changes; `{file}` in the arguments stands for the recording.
"""
import json, os, subprocess, sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "inspect")
SEQ10_ID = "AA87CE3C-341D-43E5-B696-08A75F2F151B"
CASES = {
    "recording.jsonl": [
        ["list"], ["list", "--json"], ["list", "--limit", "3"], ["list", "--limit", "3", "--json"],
        ["list", "--status", "200"], ["list", "--topic", "com.example.other", "--json"],
        ["list", "--push-type", "background"], ["list", "--since", "5", "--limit", "2"], ["list", "--reason", "Nope"],
        ["list", "--token", "aabbccddeeff00112233445566778899", "--limit", "0"],
        ["show", "1"], ["show", "5", "--json"], ["show", "12"], ["show", "14", "--json"], ["show", SEQ10_ID],
        ["show", SEQ10_ID.lower(), "--json"], ["show", "99"],
        ["stats"], ["stats", "--json"],
        ["expect", "--topic", "com.example.app", "--where", "aps.alert.title=Shipped", "--count", "7"],
        ["expect", "--where", "aps.alert.title=Shiped"], ["expect", "--where", "aps.alert.title=Shiped", "--json"],
        ["expect", "--none", "--status", "503"], ["expect", "--json", "--topic", "com.example.app", "--at-least", "2"],
        ["expect", "--since", "4", "--where", "sync=orders"], ["expect", "--status", "200", "--count", "2", "--json"],
        ["export"], ["export", "--format", "har"], ["export", "--format", "har", "--status", "400"],
        ["export", "--limit", "2"], ["export", "--format", "har", "--reason", "Nope"],
    ],
    "recording-torn.jsonl": [
        ["list"], ["list", "--limit", "2", "--json"], ["stats", "--json"], ["show", "17"], ["export"],
        ["export", "--format", "har", "--limit", "1"], ["expect", "--where", "aps.badge=1", "--count", "7"],
    ],
}

def main():
    binary = sys.argv[1]
    goldens = []
    for name, cases in CASES.items():
        path = os.path.join(HERE, name)
        for arguments in cases:
            args = [a for a in arguments] + ["--file", path]
            run = subprocess.run([binary] + args, capture_output=True, env={**os.environ, "NO_COLOR": "1"})
            goldens.append({
                "recording": name, "arguments": arguments, "status": run.returncode,
                "stdout": run.stdout.decode().replace(path, "{file}"), "stderr": run.stderr.decode().replace(path, "{file}"),
            })
    with open(os.path.join(HERE, "goldens.json"), "w") as out:
        json.dump(goldens, out, indent=1, ensure_ascii=False)
        out.write("\n")
    print("wrote %d cases" % len(goldens))

main()
