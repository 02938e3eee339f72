"""Reading an organization's archive (see ``beano.backup.archive``) before it is restored: what
is not an export of ours, of a version this release reads, and intact, is refused."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path
from typing import Any

from beano.backup import archive


class ImportRefused(Exception):
    """The archive cannot go into this database; nothing was written."""


class ArchiveReader:
    """An export opened for reading: its manifest checked to be ours and of a version this
    release reads, its members read by name, and every byte checked against the manifest."""

    def __init__(self, path: Path) -> None:
        if not path.is_file():
            raise ImportRefused(f"No archive at {path}.")
        try:
            self.tar = tarfile.open(path, "r:*")  # noqa: SIM115 (closed by __exit__)
            self.members = {m.name: m for m in self.tar.getmembers() if m.isfile()}
        except (tarfile.TarError, OSError, EOFError) as error:
            raise ImportRefused(f"{path} is not a readable archive: {error}") from error
        if archive.MANIFEST not in self.members:
            raise ImportRefused(f"{path} has no {archive.MANIFEST}: it is not an export.")
        try:
            self.manifest = json.loads(self.read(archive.MANIFEST))
        except ValueError as error:
            raise ImportRefused(f"The manifest of {path} is not JSON: {error}") from error
        if self.manifest.get("format") != archive.FORMAT:
            raise ImportRefused(f"{path} is not an export of one organization's records.")
        if self.manifest.get("format_version") != archive.FORMAT_VERSION:
            raise ImportRefused(
                f"{path} is in format version {self.manifest.get('format_version')}; this "
                f"release reads version {archive.FORMAT_VERSION}."
            )

    def __enter__(self) -> ArchiveReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.tar.close()

    def open(self, name: str) -> Any:
        member = self.members.get(name)
        if member is None:
            raise ImportRefused(f"The archive lacks {name}, which its manifest lists.")
        return self.tar.extractfile(member)

    def read(self, name: str) -> bytes:
        return self.open(name).read()

    def verify(self) -> None:
        """Every byte the manifest vouches for is what it says."""
        entries = [(archive.DATA, self.manifest["data"])] + [
            (archive.member_name(f["name"]), f) for f in self.manifest["files"]
        ]
        for name, entry in entries:
            digest, size = archive.sha256_stream(self.open(name))
            if (digest, size) != (entry["sha256"], entry["size"]):
                raise ImportRefused(
                    f"The archive was changed or damaged: {name} does not match the SHA-256 "
                    "and size its manifest gives. Nothing was imported."
                )
