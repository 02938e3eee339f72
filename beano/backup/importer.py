"""Restore one organization's archive (see ``beano.backup.archive``) into this database.

Everything is checked before anything is written: the archive against its manifest (the SHA-256
of the data and of every file), the database's migrations against the export's, that the
organization is not here already and that none of its ids is taken. Then, in one transaction:
the shared rows (a person or a user already here is used, not copied), the organization's rows
with the ids they had (the audit trail names records by id, and the organization's id is part
of every event's hash), the check of every foreign key, the audit chain's check, the check of
the records against their trail, and last the files. Any failure rolls all of it back.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import FieldDoesNotExist, SuspiciousFileOperation
from django.core.files.base import File
from django.core.files.storage import Storage, default_storage
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, IntegrityError, connection, models, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import UniqueConstraint

from beano.backup import archive, scope, trail
from beano.backup.exporter import exported_fields
from beano.backup.reader import ArchiveReader, ImportRefused
from occasions.models import Occasion
from organizations.audit import ChainCheck, moved_labels, verify_chain
from organizations.models import Organization
from reports.kept import keep

PK_CHUNK = 500


class ImportFailed(Exception):
    """A check after the rows were written failed; everything was rolled back."""


@dataclass
class SharedCount:
    added: int = 0
    matched: int = 0
    renumbered: int = 0
    #: Rows already here that say something else than the archive's (this database's kept).
    differing: list[str] = field(default_factory=list)


@dataclass
class ImportResult:
    organization_id: int
    organization_name: str
    counts: dict[str, int]
    shared: dict[str, SharedCount]
    files_written: int
    files_present: int
    chain: ChainCheck
    chain_head: str | None = None
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)


def import_organization(
    path: Path,
    *,
    allow_trail_differences: bool = False,
    allow_broken_chain: bool = False,
) -> ImportResult:
    started = time.monotonic()
    with ArchiveReader(Path(path)) as source:
        source.verify()
        restore = _Restore(source)
        restore.check_database()
        result = restore.run(
            allow_trail_differences=allow_trail_differences,
            allow_broken_chain=allow_broken_chain,
        )
    result.seconds = time.monotonic() - started
    return result


class _Restore:
    def __init__(self, source: ArchiveReader) -> None:
        self.source = source
        self.manifest = source.manifest
        self.org_id = self.manifest["organization"]["id"]
        self.org_name = self.manifest["organization"]["name"]
        # An export made before a model moved app (keeping its table) names it as it was.
        self.moved = moved_labels()
        self.scopes = {self._now(m["model"]): m["scope"] for m in self.manifest["models"]}
        self.warnings: list[str] = []
        self.objects = self._read_rows()

    # -- before writing -------------------------------------------------------------------

    def _now(self, label: Any) -> Any:
        """A model's label now, for one the export names as it was before it moved app."""
        return self.moved.get(label, label) if isinstance(label, str) else label

    def _read_rows(self) -> dict[str, list[Any]]:
        """The rows, deserialized, by model; their counts must be the manifest's."""
        by_model: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for number, line in enumerate(self.source.open(archive.DATA), start=1):
            try:
                row = json.loads(line)
                row["model"] = self._now(row["model"])
                by_model[row["model"]].append(row)
            except (ValueError, KeyError, TypeError) as error:
                raise ImportRefused(f"Line {number} of the archive's rows is not a row.") from error
        counts = {self._now(m["model"]): m["count"] for m in self.manifest["models"]}
        found = {label: len(rows) for label, rows in by_model.items()}
        if {k: v for k, v in counts.items() if v} != found:
            raise ImportRefused(
                "The archive's rows do not match its manifest's counts. Nothing was imported."
            )
        objects: dict[str, list[Any]] = {}
        for label in counts:
            try:
                apps.get_model(label)
            except LookupError:
                raise ImportRefused(
                    f"This release has no model {label}, which the export holds: restore with "
                    "the release the export was made with, or a newer one."
                ) from None
            try:
                rows = list(serializers.deserialize("python", by_model.get(label, [])))
            except (DeserializationError, ValueError, KeyError) as error:
                raise ImportRefused(
                    f"The archive's {label} rows cannot be read: {error}"
                ) from error
            objects[label] = rows
        return objects

    def check_database(self) -> None:
        missing = sorted(
            {tuple(m) for m in self.manifest["source"]["migrations"]}
            - set(MigrationRecorder(connection).applied_migrations())
        )
        if missing:
            listed = ", ".join(f"{app}.{name}" for app, name in missing[:5])
            raise ImportRefused(
                f"This database lacks migrations the export was made with ({listed}): run "
                "`python manage.py migrate` with this release (or a newer one) first."
            )
        here = Organization.objects.filter(pk=self.org_id) | Organization.objects.filter(
            name=self.org_name
        )
        if here.exists():
            holder = here.first()
            raise ImportRefused(
                f"This database already holds {holder} (#{holder.pk}): an organization is "
                "restored only into a database that does not hold it. Nothing was imported."
            )
        taken: list[str] = []
        for label, objs in self.objects.items():
            if self.scopes[label] != "organization":
                continue
            model = apps.get_model(label)
            pks = [o.object.pk for o in objs]
            for start in range(0, len(pks), PK_CHUNK):
                chunk = pks[start : start + PK_CHUNK]
                clash = model._base_manager.filter(pk__in=chunk).values_list("pk", flat=True)
                taken += [f"{label} #{pk}" for pk in clash[:3]]
        if taken:
            raise ImportRefused(
                "This database already has rows with ids the organization's records keep ("
                + ", ".join(taken[:8])
                + "). The records keep their ids so that the audit trail still names them: "
                "restore into an empty database, or one without these ids. Nothing was imported."
            )
        for entry in self.manifest["files"]:
            storage = self._storage(entry)
            try:
                exists = storage.exists(entry["name"])
            except SuspiciousFileOperation as error:
                raise ImportRefused(
                    f"The archive names a file outside the media folder: {entry['name']!r}."
                ) from error
            if exists and _sha256(storage, entry["name"]) != entry["sha256"]:
                raise ImportRefused(
                    f"The media folder already has another file at {entry['name']}. "
                    "Nothing was imported."
                )

    # -- writing --------------------------------------------------------------------------

    def run(self, *, allow_trail_differences: bool, allow_broken_chain: bool) -> ImportResult:
        written: list[tuple[Storage, str]] = []
        try:
            with transaction.atomic():
                shared = self._restore_shared()
                counts = self._restore_organization()
                self._reset_sequences()
                try:
                    connection.check_constraints(table_names=self._tables())
                except IntegrityError as error:
                    raise ImportFailed(
                        f"Rows point at rows that are not in the archive: {error}"
                    ) from error
                chain = self._check_chain(allow_broken_chain)
                self._check_trail(allow_trail_differences)
                # The figures the Commission's pages read, kept from the records just imported.
                keep(Occasion.objects.filter(organization_id=self.org_id))
                present = self._write_files(written)
        except BaseException:
            for storage, name in written:
                storage.delete(name)
            raise
        return ImportResult(
            organization_id=self.org_id,
            organization_name=self.org_name,
            counts=counts,
            shared=shared,
            files_written=len(written),
            files_present=present,
            chain=chain,
            chain_head=self.manifest["audit_chain"]["head_hash"],
            warnings=self.warnings,
        )

    def _restore_shared(self) -> dict[str, SharedCount]:
        """Shared rows: the one already here with the same identity (a username, a person's
        name and date of birth, an arrangement's code) is used; a new one keeps its id when free."""
        self.renumber: dict[type[models.Model], dict[Any, Any]] = defaultdict(dict)
        result: dict[str, SharedCount] = {}
        user_model = get_user_model()
        for label, objs in self.objects.items():
            if self.scopes[label] == "organization":
                continue
            model = apps.get_model(label)
            count = result[label] = SharedCount()
            key = identity(model)
            for dobj in objs:
                obj = dobj.object
                self._remap(obj)
                old_pk = obj.pk
                existing = None
                if key:
                    existing = model._base_manager.filter(
                        **{name: getattr(obj, name) for name in key}
                    ).first()
                if existing is not None:
                    count.matched += 1
                    self.renumber[model][old_pk] = existing.pk
                    if existing.pk != old_pk:
                        count.renumbered += 1
                    if _differs(existing, obj):
                        count.differing.append(str(existing))
                    continue
                if model is user_model:
                    obj.set_unusable_password()
                if model._base_manager.filter(pk=old_pk).exists():
                    obj.pk = None
                    count.renumbered += 1
                self._save(model, [obj], label)
                if dobj.m2m_data:
                    for name, values in dobj.m2m_data.items():
                        target = model._meta.get_field(name).related_model
                        getattr(obj, name).set([self._mapped(target, v) for v in values])
                self.renumber[model][old_pk] = obj.pk
                count.added += 1
        renumbered = {k: v.renumbered for k, v in result.items() if v.renumbered}
        if renumbered:
            self.warnings.append(
                "Shared rows already here under another id, or whose id was taken, were "
                f"used under this database's ids ({renumbered}); the audit trail's values "
                "still name them by the ids they had at export."
            )
        for label, count in result.items():
            if count.differing:
                self.warnings.append(
                    f"{len(count.differing)} {label} row(s) already here differ from the "
                    f"archive's and were kept as they are here: {', '.join(count.differing[:5])}"
                )
        return result

    def _restore_organization(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for label, objs in self.objects.items():
            if self.scopes[label] != "organization":
                continue
            model = apps.get_model(label)
            rows = []
            for dobj in objs:
                self._remap(dobj.object)
                rows.append(dobj.object)
            self._save(model, rows, label)
            for dobj in objs:
                for name, values in (dobj.m2m_data or {}).items():
                    m2m = model._meta.get_field(name)
                    through = m2m.remote_field.through
                    through._base_manager.bulk_create(
                        through(
                            **{
                                m2m.m2m_field_name() + "_id": dobj.object.pk,
                                m2m.m2m_reverse_field_name() + "_id": self._mapped(
                                    m2m.related_model, v
                                ),
                            }
                        )
                        for v in values
                    )
            counts[label] = len(rows)
        return counts

    def _save(self, model: type[models.Model], rows: list[models.Model], label: str) -> None:
        """Insert as they are: no ``auto_now`` rewrites a time, and ids are kept."""
        fields = model._meta.local_concrete_fields
        try:
            with_pk = [r for r in rows if r.pk is not None]
            batch = max(1, connection.ops.bulk_batch_size(fields, with_pk) or len(with_pk))
            for start in range(0, len(with_pk), batch):
                model._base_manager._insert(
                    with_pk[start : start + batch], fields=fields, raw=True, using=connection.alias
                )
            for row in rows:
                if row.pk is None:
                    row.save_base(raw=True, force_insert=True)
        except (IntegrityError, DatabaseError) as error:
            raise ImportFailed(f"{label} could not be written: {error}") from error

    def _remap(self, obj: models.Model) -> None:
        for f in scope.forward_relations(type(obj)):
            value = getattr(obj, f.attname)
            if value is not None:
                setattr(obj, f.attname, self._mapped(f.related_model, value))

    def _mapped(self, model: type[models.Model], pk: Any) -> Any:
        return self.renumber.get(model, {}).get(pk, pk)

    def _tables(self) -> list[str]:
        tables = []
        for label in self.objects:
            model = apps.get_model(label)
            tables.append(model._meta.db_table)
            tables += [
                f.remote_field.through._meta.db_table
                for f in model._meta.many_to_many
                if f.remote_field.through._meta.auto_created
            ]
        return tables

    def _reset_sequences(self) -> None:
        """PostgreSQL's sequences move past the ids written (SQLite's follow by themselves)."""
        statements = connection.ops.sequence_reset_sql(
            no_style(), [apps.get_model(label) for label in self.objects]
        )
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)

    def _check_chain(self, allow_broken: bool) -> ChainCheck:
        organization = Organization.objects.get(pk=self.org_id)
        check = verify_chain(organization)
        recorded = self.manifest["audit_chain"]
        if check.ok:
            if (check.intact_through, _head(organization)) != (
                recorded["length"],
                recorded["head_hash"],
            ):
                raise ImportFailed(
                    f"The audit chain checks through event {check.intact_through}, but the "
                    f"export's chain ran through event {recorded['length']} with another head. "
                    "Nothing was imported."
                )
            return check
        if allow_broken and not recorded["intact"] and recorded["check"] == str(check):
            self.warnings.append(f"The audit chain was already broken at export: {check}")
            return check
        was = "" if recorded["intact"] else f" (at export: {recorded['check']})"
        raise ImportFailed(
            f"Audit chain check failed: {check}{was} The archive's records are not the ones "
            "that were exported. Nothing was imported."
        )

    def _check_trail(self, allow: bool) -> None:
        organization = Organization.objects.get(pk=self.org_id)
        found = trail.differences(organization)
        if not found:
            return
        listed = "\n  ".join(str(d) for d in found[:10])
        message = (
            f"{len(found)} value(s) of the restored records differ from what the audit trail "
            f"last recorded (the export found {self.manifest['trail_difference_count']}):\n  "
            f"{listed}"
        )
        if not allow:
            raise ImportFailed(
                message + "\nNothing was imported (--allow-trail-differences imports anyway)."
            )
        self.warnings.append(message)

    def _write_files(self, written: list[tuple[Storage, str]]) -> int:
        present = 0
        for entry in self.manifest["files"]:
            storage, name = self._storage(entry), entry["name"]
            if storage.exists(name):
                present += 1
                continue
            saved = storage.save(name, File(self.source.open(archive.member_name(name))))
            written.append((storage, saved))
            if saved != name:
                raise ImportFailed(f"The media folder stored {name} as {saved}.")
        return present

    def _storage(self, entry: dict[str, Any]) -> Storage:
        """The storage of the field that names the file (the default storage otherwise)."""
        for used in entry.get("used_by", []):
            label, _, rest = used.partition("#")
            field_name = rest.partition(".")[2]
            try:
                return apps.get_model(label)._meta.get_field(field_name).storage
            except (LookupError, AttributeError, FieldDoesNotExist):
                continue
        return default_storage


def identity(model: type[models.Model]) -> tuple[str, ...] | None:
    """What makes a shared row the same row in another database: its first unique field, or
    its first unconditional unique constraint."""
    for f in model._meta.concrete_fields:
        if f.unique and not f.primary_key:
            return (f.attname,)
    for constraint in model._meta.constraints:
        if (
            isinstance(constraint, UniqueConstraint)
            and constraint.fields
            and constraint.condition is None
            and not constraint.expressions
        ):
            return tuple(model._meta.get_field(n).attname for n in constraint.fields)
    for together in model._meta.unique_together:
        return tuple(model._meta.get_field(n).attname for n in together)
    return None


def _differs(existing: models.Model, archived: models.Model) -> bool:
    names = exported_fields(type(existing))
    fields = [
        f
        for f in type(existing)._meta.local_concrete_fields
        if not f.primary_key and (names is None or f.name in names)
    ]
    return any(getattr(existing, f.attname) != getattr(archived, f.attname) for f in fields)


def _head(organization: Organization) -> str | None:
    chain = getattr(organization, "audit_chain", None)
    return chain.head_hash if chain else None


def _sha256(storage: Storage, name: str) -> str:
    digest = hashlib.sha256()
    with storage.open(name, "rb") as handle:
        while block := handle.read(archive.CHUNK):
            digest.update(block)
    return digest.hexdigest()
