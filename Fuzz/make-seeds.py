#!/usr/bin/env python3
"""Writes the committed seed corpora, Fuzz/Seeds/<target>/, from Fixtures/ (run from the repository root with
the Makefile's venv: `.venv/bin/python Fuzz/make-seeds.py`; it needs python-h2 for the HTTP/2 seeds and the
`openssl` command to sign tokens with the bundled test keys).

Each conformance case becomes one RequestScript (see Fuzz/Harness/Input/RequestScript.swift) with a token minted
for the fuzz clock (or its certificate), preceded by its connection history; the JSON seeds are every body and
payload fixture; the JWT seeds are the minted tokens, raw and in the target's structured form; the HTTP/2 seeds
are the same requests as python-h2 frames them on one h2c connection.
"""
import base64
import glob
import json
import os
import shutil
import subprocess
import sys

import h2.config
import h2.connection

NOW = 1_800_000_000  # FuzzCredentials.now
DEVICE = "5e7a2b1c9d4f0e3a6b8c7d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a"
SEEDS = "Fuzz/Seeds"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def der_to_raw(der):
    """ECDSA-Sig-Value (DER SEQUENCE of two INTEGERs) → 64-byte R‖S."""
    assert der[0] == 0x30
    i = 2 if der[1] < 0x80 else 2 + (der[1] & 0x7F)
    out = b""
    for _ in range(2):
        assert der[i] == 0x02
        n = der[i + 1]
        out += der[i + 2:i + 2 + n].lstrip(b"\0").rjust(32, b"\0")
        i += 2 + n
    return out


def sign(key_id, signing_input):
    der = subprocess.run(["openssl", "dgst", "-sha256", "-sign", f"certs/AuthKey_{key_id}.p8"],
                         input=signing_input, capture_output=True, check=True).stdout
    return der_to_raw(der)


def token(auth, iat):
    alg = auth.get("alg", "ES256")
    header = {"alg": alg, "kid": auth["key_id"]}
    claims = {"iss": auth["team_id"], "iat": iat}
    for omitted in auth.get("omit", []):
        header.pop(omitted, None)
        claims.pop(omitted, None)
    signing_input = (b64url(json.dumps(header, separators=(",", ":")).encode()) + "."
                     + b64url(json.dumps(claims, separators=(",", ":")).encode())).encode()
    key = auth["key_id"] if os.path.exists(f"certs/AuthKey_{auth['key_id']}.p8") else "TESTKEY001"
    signature = {"other-key": lambda: sign("OTHERKEY01", signing_input)}.get(auth.get("signature"), lambda: sign(key, signing_input))()
    if auth.get("signature") == "tampered":
        signature = bytes([signature[0] ^ 1]) + signature[1:]
    return signing_input.decode() + "." + b64url(signature), header, claims


def body(request):
    if "body" in request:
        return json.dumps(request["body"], separators=(",", ":")).encode()
    if "body_text" in request:
        return request["body_text"].encode()
    if "body_hex" in request:
        return bytes.fromhex(request["body_hex"])
    if "body_file" in request:
        return open(os.path.join("Fixtures", request["body_file"]), "rb").read()
    if "body_bytes" in request:
        value = request["body_bytes"]
        return b"x" * value if isinstance(value, int) else bytes(value)
    return b""


def request_lines(request, auth, at_offset, tokens):
    """The head of one request (directives, request line, headers) and its header list for h2."""
    lines = [f"@now {NOW + at_offset}"]
    headers = [(k, v) for k, v in request.get("headers", [])]
    if auth.get("kind") == "token":
        text, header, claims = token(auth, NOW + at_offset + auth.get("iat_offset", 0))
        tokens.append((text, header, claims))
        headers.append(("authorization", "bearer " + text))
    elif auth.get("kind") == "malformed":
        headers.append(("authorization", auth.get("authorization", "bearer not.a.token")))
    lines.append(f"{request['method']} {request['path']}")
    lines += [f"{k}: {v}" for k, v in headers]
    return lines, headers


def write(target, name, data):
    os.makedirs(f"{SEEDS}/{target}", exist_ok=True)
    with open(f"{SEEDS}/{target}/{name}", "wb") as f:
        f.write(data)


def h2_frames(requests):
    connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    connection.initiate_connection()
    for headers, data in requests:
        stream = connection.get_next_available_stream_id()
        connection.send_headers(stream, headers, end_stream=not data)
        if data:
            connection.send_data(stream, data, end_stream=True)
    frames = connection.data_to_send()
    preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
    assert frames.startswith(preface)
    return b"\0" + frames[len(preface):]  # first byte even: the target sends the preface itself


def main():
    shutil.rmtree(SEEDS, ignore_errors=True)
    for path in sorted(glob.glob("Fixtures/conformance/*.json")):
        name = os.path.basename(path)[:-5]
        case = json.load(open(path))
        tokens = []
        parts, h2_requests = [], []
        env = case.get("environment", "development")
        cert = case["auth"].get("cert") if case["auth"].get("kind") == "certificate" else None
        for entry in case.get("connection_history", []):
            lines, headers = request_lines(case["request"], entry.get("auth", case["auth"]), entry.get("at_offset", 0), tokens)
            parts.append("\n".join(lines).encode() + b"\n\n" + body(case["request"]))
        lines, headers = request_lines(case["request"], case["auth"], 0, tokens)
        if cert:
            lines.insert(0, f"@cert {cert}")
        lines.insert(0, f"@env {env}")
        data = body(case["request"])
        parts.append("\n".join(lines).encode() + b"\n\n" + data)
        script = b"\n---\n".join(parts)
        write("decider", name, script)
        write("lint", name, script)
        write("simulator", name, bytes([len(name) % 256, sum(name.encode()) % 256]) + script)
        path_only = case["request"]["path"]
        h2_headers = [(":method", case["request"]["method"]), (":scheme", "http"), (":authority", "127.0.0.1"),
                      (":path", path_only)] + [(k.lower(), v) for k, v in headers]
        write("http2", name, h2_frames([(h2_headers, data)]))
        if data:
            write("json", name, data)
        for i, (text, header, claims) in enumerate(tokens):
            write("jwt", f"{name}-{i}-raw", b"\0" + text.encode())
            structured = (json.dumps(header).encode() + b"\n" + json.dumps(claims).encode())
            write("jwt", f"{name}-{i}-signed", b"\1" + structured)
    for path in sorted(glob.glob("Fixtures/payloads/*.json") + glob.glob("Fixtures/seeds/*.json")):
        write("json", "fixture-" + os.path.basename(path), open(path, "rb").read())
    # Tokens whose iat is at the edges of Int64, as number and as string: the time rules' arithmetic.
    for iat in ["-9223372036854775808", "9223372036854775807", "\"-9223372036854775808\"", "1.8e9", "\"1800000000\""]:
        header = b'{"alg":"ES256","kid":"TESTKEY001"}'
        write("jwt", f"iat-{iat.strip(chr(34))}", b"\1" + header + b'\n{"iss":"TESTTEAM01","iat":' + iat.encode() + b"}")
    print("seeds:", {t: len(os.listdir(f"{SEEDS}/{t}")) for t in sorted(os.listdir(SEEDS))})


if __name__ == "__main__":
    sys.exit(main())
