"""The browser libraries served from static/vendor/ are the npm packages pinned in
vendor/npm/package-lock.json, unchanged (copied by vendor/npm/vendor.py, which checks each
tarball against the lock's integrity): no network here, so the copy is checked against the
list the copier wrote and the list against the lock."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NPM = ROOT / "vendor" / "npm"


def _copier():
    spec = importlib.util.spec_from_file_location("vendor_npm", NPM / "vendor.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _listed() -> list[tuple[str, str, str]]:
    rows = []
    for line in (NPM / "VENDORED.sha256").read_text().splitlines():
        digest, target, spec = line.split("  ")
        rows.append((digest, target, spec))
    return rows


def test_each_vendored_file_is_the_one_copied_from_its_package():
    rows = _listed()
    assert rows
    for digest, target, spec in rows:
        assert "@" in spec, target
        content = (ROOT / "static" / "vendor" / target).read_bytes()
        assert hashlib.sha256(content).hexdigest() == digest, f"{target} was changed by hand"


def test_the_list_names_every_file_the_copier_copies_at_the_locked_versions():
    copier = _copier()
    locked = copier.locked()
    package = json.loads((NPM / "package.json").read_text())
    assert set(package["dependencies"]) == set(copier.FILES)
    for name, version in package["dependencies"].items():
        assert locked[name]["version"] == version, name
        assert locked[name]["integrity"].startswith("sha512-"), name
    expected = {
        (target, f"{name}@{locked[name]['version']}")
        for name, files in copier.FILES.items()
        for target in files
    }
    assert {(target, spec) for _, target, spec in _listed()} == expected


def test_no_vendored_script_loads_anything_from_another_site():
    for _, target, _ in _listed():
        if target.endswith(".js"):
            text = (ROOT / "static" / "vendor" / target).read_text()
            assert "storage.googleapis.com" not in text, target
            assert "importScripts(" not in text or "workbox-sw" not in text, target
