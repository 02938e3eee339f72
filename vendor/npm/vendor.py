"""Copy the browser libraries of package-lock.json into static/vendor/, checked.

Run by hand (``make vendor-npm``) when a version in package.json changes: ``npm pack`` fetches
each package's tarball, its sha512 is checked against the lock's integrity, and the files named
in FILES are copied out of it unchanged, with the package's licence. VENDORED.sha256 lists what
was copied; tests/test_vendored_npm.py checks the files served against it and the lock, with no
network and no npm."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
STATIC = HERE.parent.parent / "static" / "vendor"

#: Each package's files served by the app: where they go under static/vendor/, from the tarball.
FILES: dict[str, dict[str, str]] = {
    "workbox-core": {
        "workbox/workbox-core.prod.js": "build/workbox-core.prod.js",
        "workbox/workbox-core.prod.js.map": "build/workbox-core.prod.js.map",
    },
    "workbox-routing": {
        "workbox/workbox-routing.prod.js": "build/workbox-routing.prod.js",
        "workbox/workbox-routing.prod.js.map": "build/workbox-routing.prod.js.map",
    },
    "workbox-strategies": {
        "workbox/workbox-strategies.prod.js": "build/workbox-strategies.prod.js",
        "workbox/workbox-strategies.prod.js.map": "build/workbox-strategies.prod.js.map",
    },
    "workbox-precaching": {
        "workbox/workbox-precaching.prod.js": "build/workbox-precaching.prod.js",
        "workbox/workbox-precaching.prod.js.map": "build/workbox-precaching.prod.js.map",
    },
    "workbox-expiration": {
        "workbox/workbox-expiration.prod.js": "build/workbox-expiration.prod.js",
        "workbox/workbox-expiration.prod.js.map": "build/workbox-expiration.prod.js.map",
    },
    "workbox-window": {
        "workbox/workbox-window.prod.umd.js": "build/workbox-window.prod.umd.js",
        "workbox/workbox-window.prod.umd.js.map": "build/workbox-window.prod.umd.js.map",
        "workbox/LICENSE.txt": "LICENSE",
    },
    "idb": {
        "idb/umd.js": "build/umd.js",
        "idb/LICENSE.txt": "LICENSE",
    },
}


def locked() -> dict[str, dict]:
    """The top-level packages of package-lock.json: name -> its entry (version, integrity)."""
    lock = json.loads((HERE / "package-lock.json").read_text())
    return {
        path.removeprefix("node_modules/"): entry
        for path, entry in lock["packages"].items()
        if path.startswith("node_modules/") and path.count("node_modules/") == 1
    }


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def main() -> int:
    packages = locked()
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, files in FILES.items():
            entry = packages[name]
            spec = f"{name}@{entry['version']}"
            subprocess.run(["npm", "pack", spec, "--silent"], cwd=tmp, check=True)
            tarball = Path(tmp) / f"{name}-{entry['version']}.tgz"
            data = tarball.read_bytes()
            algorithm, expected = entry["integrity"].split("-", 1)
            digest = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
            if digest != expected:
                print(f"{spec}: the tarball does not match the lock's integrity", file=sys.stderr)
                return 1
            with tarfile.open(fileobj=io.BytesIO(data)) as archive:
                for target, source in files.items():
                    member = archive.extractfile(f"package/{source}")
                    assert member is not None, source
                    content = member.read()
                    path = STATIC / target
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(content)
                    lines.append(f"{sha256(content)}  {target}  {spec}")
    (HERE / "VENDORED.sha256").write_text("\n".join(sorted(lines)) + "\n")
    print(f"{len(lines)} files copied into static/vendor/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
