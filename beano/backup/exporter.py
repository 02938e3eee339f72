"""Export one organization's records into an archive (see ``beano.backup.archive``)."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import os
import tarfile
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import django
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.db import connection, models, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from beano.backup import archive, scope, trail
from organizations.audit import verify_chain
from organizations.models import AuditChain, Organization

CHUNK_ROWS = 2000


class ExportError(Exception):
    """The organization's records cannot be exported as they stand."""


@dataclass
class ExportResult:
    path: Path
    manifest: dict[str, Any]
    size: int
    seconds: float
    warnings: list[str] = field(default_factory=list)


def user_fields() -> list[str]:
    """What is kept of a user: who they are, never their password, staff flags or groups."""
    user = get_user_model()
    wanted = {user.USERNAME_FIELD, "first_name", "last_name", "is_active", "date_joined"}
    return [f.name for f in user._meta.concrete_fields if f.name in wanted]


def exported_fields(model: type[models.Model]) -> list[str] | None:
    """The fields serialized for ``model``: all of them (None), or a user's few."""
    return user_fields() if model is get_user_model() else None


def follows_many_to_many(model: type[models.Model]) -> bool:
    """A user's groups and permissions are the installation's, not the organization's."""
    return model is not get_user_model()


def applied_migrations() -> list[list[str]]:
    project = {c.label for c in apps.get_app_configs() if scope.is_project_app(c)}
    applied = MigrationRecorder(connection).applied_migrations()
    return sorted([app, name] for app, name in applied if app in project)


def export_organization(
    organization: Organization,
    output: Path,
    *,
    allow_missing_files: bool = False,
) -> ExportResult:
    """Write ``organization``'s records to ``output`` (a .tar.gz), atomically: the file appears
    complete or not at all."""
    started = time.monotonic()
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql" and outermost:
            # One snapshot for every table: rows written meanwhile are all in or all out.
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        exporter = _Exporter(organization)
        fd, partial = tempfile.mkstemp(prefix=".export-", suffix=".partial", dir=output.parent)
        os.close(fd)
        try:
            manifest = exporter.write(Path(partial), allow_missing_files=allow_missing_files)
            os.replace(partial, output)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise
    return ExportResult(
        path=output,
        manifest=manifest,
        size=output.stat().st_size,
        seconds=time.monotonic() - started,
        warnings=exporter.warnings,
    )


class _Exporter:
    def __init__(self, organization: Organization) -> None:
        self.organization = organization
        self.org_models = scope.organization_models()
        self.querysets = {
            m: scope.organization_queryset(m, organization.pk) for m in self.org_models
        }
        self.warnings: list[str] = []

    # -- what is exported ---------------------------------------------------------------

    def check_closure(self) -> None:
        """Every row an exported row points at is exported too: the organization's own rows
        never point at another organization's."""
        problems: list[str] = []
        for model, qs in self.querysets.items():
            for ref in scope.references(model):
                if ref.target not in self.querysets:
                    continue
                theirs = self.querysets[ref.target].values("pk")
                if ref.many:
                    through = ref.field.remote_field.through
                    source, target = _through_columns(through, ref)
                    bad = (
                        through._base_manager.filter(**{f"{source}__in": qs.values("pk")})
                        .exclude(**{f"{target}__in": theirs})
                        .values_list(source, target)[:5]
                    )
                else:
                    bad = (
                        qs.filter(**{f"{ref.field.attname}__isnull": False})
                        .exclude(**{f"{ref.field.attname}__in": theirs})
                        .values_list("pk", ref.field.attname)[:5]
                    )
                problems += [
                    f"{scope.label(model)} #{pk} → {ref.field.name} #{target_pk} "
                    f"({scope.label(ref.target)}) is not {self.organization}'s"
                    for pk, target_pk in bad
                ]
        if problems:
            raise ExportError(
                "The records point at another organization's, so they cannot be exported "
                "alone:\n  " + "\n  ".join(problems[:20])
            )

    def shared_rows(self) -> dict[type[models.Model], set[Any]]:
        """The shared rows the organization's rows point at (and those they point at), and
        the shared tables exported whole."""
        wanted: dict[type[models.Model], set[Any]] = defaultdict(set)
        for label in scope.WHOLE_TABLES:
            model = apps.get_model(label)
            wanted[model] |= set(model._base_manager.values_list("pk", flat=True))
        for model, qs in self.querysets.items():
            for ref in scope.references(model):
                if ref.target in self.querysets:
                    continue
                wanted[ref.target] |= set(_referenced(qs, ref))
        # Shared rows may point at more shared rows: follow until nothing new turns up.
        done: dict[type[models.Model], set[Any]] = defaultdict(set)
        while any(wanted[m] - done[m] for m in list(wanted)):
            for model in list(wanted):
                new = wanted[model] - done[model]
                if not new:
                    continue
                done[model] |= new
                rows = model._base_manager.filter(pk__in=new)
                for ref in scope.references(model):
                    if ref.many and not follows_many_to_many(model):
                        continue
                    pks = set(_referenced(rows, ref))
                    if ref.target in self.querysets:
                        theirs = set(
                            self.querysets[ref.target]
                            .filter(pk__in=pks)
                            .values_list("pk", flat=True)
                        )
                        if pks - theirs:
                            raise ExportError(
                                f"A shared {scope.label(model)} points at "
                                f"{scope.label(ref.target)} rows of another organization."
                            )
                        continue
                    wanted[ref.target] |= pks
        return {m: pks for m, pks in done.items() if pks}

    # -- writing ------------------------------------------------------------------------

    def write(self, path: Path, *, allow_missing_files: bool) -> dict[str, Any]:
        self.check_closure()
        chain_check = verify_chain(self.organization)
        if not chain_check.ok:
            self.warnings.append(f"The audit chain at the source is broken: {chain_check}")
        differences = trail.differences(self.organization)
        if differences:
            self.warnings.append(
                f"{len(differences)} record value(s) differ from what the audit trail last "
                f"recorded, e.g. {differences[0]}"
            )
        head = AuditChain.objects.filter(organization=self.organization).first()
        manifest: dict[str, Any] = {
            "format": archive.FORMAT,
            "format_version": archive.FORMAT_VERSION,
            "created_at": timezone.now().isoformat(),
            "organization": {"id": self.organization.pk, "name": self.organization.name},
            "source": {
                "database": connection.vendor,
                "django": django.get_version(),
                "migrations": applied_migrations(),
            },
            "audit_chain": {
                "length": head.length if head else 0,
                "head_hash": head.head_hash if head else None,
                "check": str(chain_check),
                "intact": chain_check.ok,
            },
            "trail_differences": [str(d) for d in differences[:20]],
            "trail_difference_count": len(differences),
            "models": [],
            "data": {},
            "files": [],
            "missing_files": [],
            "users": "Users are exported with their username, names, active flag and date "
            "joined only; they are restored with an unusable password (set one, or use the "
            "password reset, before they can sign in), without staff rights or groups.",
            "sealed_values": "W-2G TINs and ID numbers stay sealed with the SECRET_KEY of the "
            "source installation: the restoring installation opens them only with that key "
            "(or with it in SECRET_KEY_FALLBACKS).",
        }
        files: dict[str, dict[str, Any]] = {}
        with (
            tempfile.TemporaryFile() as data,
            tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tar,
        ):
            manifest["models"] = self._write_rows(data, files)
            size = data.tell()
            data.seek(0)
            digest, _ = archive.sha256_stream(data)
            manifest["data"] = {"name": archive.DATA, "sha256": digest, "size": size}
            data.seek(0)
            _add(tar, archive.DATA, data, size)
            self._write_files(tar, files, manifest, allow_missing_files=allow_missing_files)
            blob = archive.dumps_line(manifest)
            _add(tar, archive.MANIFEST, io.BytesIO(blob), len(blob))
        return manifest

    def _write_rows(self, data: Any, files: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
        """The shared rows, then the organization's, each model after those it points to."""
        counts: list[dict[str, Any]] = []
        shared = self.shared_rows()
        for model in scope.dependency_order(shared):
            rows = model._base_manager.filter(pk__in=shared[model])
            kind = "reference" if scope.label(model) in scope.WHOLE_TABLES else "shared"
            n = self._serialize(model, rows, data.write, files)
            counts.append({"model": scope.label(model), "scope": kind, "count": n})
        for model in self.org_models:
            n = self._serialize(model, self.querysets[model], data.write, files)
            counts.append({"model": scope.label(model), "scope": "organization", "count": n})
        return counts

    def _write_files(
        self,
        tar: tarfile.TarFile,
        files: dict[str, dict[str, Any]],
        manifest: dict[str, Any],
        *,
        allow_missing_files: bool,
    ) -> None:
        for name, entry in sorted(files.items()):
            storage = entry.pop("storage")
            if not storage.exists(name):
                manifest["missing_files"].append({"name": name, **entry})
                continue
            with storage.open(name, "rb") as handle:
                hashing = _HashingReader(handle)
                _add(tar, archive.member_name(name), hashing, storage.size(name))
            manifest["files"].append(
                {"name": name, "sha256": hashing.hexdigest(), "size": hashing.size, **entry}
            )
        missing = manifest["missing_files"]
        if missing:
            listed = ", ".join(f["name"] for f in missing[:5])
            message = f"{len(missing)} file(s) the rows name are missing from the media folder"
            if not allow_missing_files:
                raise ExportError(
                    f"{message}: {listed}. Export with --allow-missing-files to write the "
                    "archive without them (they are listed in its manifest)."
                )
            self.warnings.append(f"{message}: {listed}")

    def _serialize(
        self,
        model: type[models.Model],
        queryset: models.QuerySet,
        emit: Any,
        files: dict[str, dict[str, Any]],
    ) -> int:
        fields = exported_fields(model)
        file_fields = [f for f in model._meta.concrete_fields if isinstance(f, models.FileField)]
        m2m = [
            f.name
            for f in model._meta.many_to_many
            if follows_many_to_many(model) and f.remote_field.through._meta.auto_created
        ]
        count = 0
        for chunk in _chunks(queryset.prefetch_related(*m2m)):
            for obj in serializers.serialize("python", chunk, fields=fields):
                emit(archive.dumps_line(obj))
            for obj in chunk:
                for f in file_fields:
                    name = getattr(obj, f.attname).name
                    if name:
                        entry = files.setdefault(name, {"storage": f.storage, "used_by": []})
                        entry["used_by"].append(f"{scope.label(model)}#{obj.pk}.{f.name}")
            count += len(chunk)
        return count


def _chunks(queryset: models.QuerySet) -> Iterator[list[models.Model]]:
    """The rows in pk order, a chunk at a time (keyset pages: no OFFSET)."""
    last = None
    ordered = queryset.order_by("pk")
    while True:
        page = ordered if last is None else ordered.filter(pk__gt=last)
        chunk = list(page[:CHUNK_ROWS])
        if not chunk:
            return
        yield chunk
        last = chunk[-1].pk


def _referenced(queryset: models.QuerySet, ref: scope.Reference) -> Iterator[Any]:
    if ref.many:
        through = ref.field.remote_field.through
        source, target = _through_columns(through, ref)
        rows = through._base_manager.filter(**{f"{source}__in": queryset.values("pk")})
        return iter(rows.values_list(target, flat=True).distinct())
    values = queryset.exclude(**{f"{ref.field.attname}__isnull": True})
    return iter(values.values_list(ref.field.attname, flat=True).distinct())


def _through_columns(through: type[models.Model], ref: scope.Reference) -> tuple[str, str]:
    """The field names of an automatic many-to-many table's two foreign keys (source, target)."""
    return ref.field.m2m_field_name(), ref.field.m2m_reverse_field_name()


def _add(tar: tarfile.TarFile, name: str, stream: Any, size: int) -> None:
    info = tarfile.TarInfo(name)
    info.size = size
    info.mtime = int(dt.datetime.now(dt.UTC).timestamp())
    info.mode = 0o640
    tar.addfile(info, stream)


class _HashingReader:
    """A file read once: into the archive, and into its SHA-256 on the way."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle
        self.digest = hashlib.sha256()
        self.size = 0

    def read(self, n: int = -1) -> bytes:
        block = self.handle.read(n)
        self.digest.update(block)
        self.size += len(block)
        return block

    def hexdigest(self) -> str:
        return self.digest.hexdigest()
