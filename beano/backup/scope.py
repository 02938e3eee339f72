"""Which rows are an organization's: found by walking the app registry, never from a list.

A model of the project's apps (the apps whose code lives in this repository) is the
organization's when a chain of forward foreign keys leads from it to ``Organization`` (a sale
line → its sale → its occasion → its organization), or when it keeps the organization's id as a
plain ``organization_id`` number (the log of refused actions, which must outlive what it names).
A row belongs to the organization when any of those chains leads to it. A model added
later is covered the day it is migrated, without editing this module.

Every other model is *shared*: a person on several organizations' worker lists, a winning
arrangement, a kind of expense, a town's police rate, a user. Only the shared rows the
organization's rows point at are exported with them; the tables in ``WHOLE_TABLES`` (the legal
limits every record was judged against) go whole; those in ``DERIVED_TABLES`` (written again
from the records) are never archived.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.apps import AppConfig, apps
from django.conf import settings
from django.db import models
from django.db.models import Q

ORGANIZATION_LABEL = "organizations.organization"
SOFT_LINK = "organization_id"

#: Shared tables exported whole, with why.
WHOLE_TABLES = {
    "rules.lawlimit": "the dated legal limits in force, against which every record was judged",
}

#: Tables written again from the records, never archived: the figures kept for the Commission's
#: pages (``reports.kept``, kept again for the organization when its archive is imported) and
#: the checkpoints of the hourly whole check of the chains (made again by the next check here).
DERIVED_TABLES = {
    "reports.keptoccasionfigures": "an occasion's figures, kept from its records",
    "reports.keptwinnermatch": "winners matched against every organization's worker lists",
    "reports.keptstatewidemonth": "the statewide medians of every licensee's occasions",
    "organizations.chainverification": "the last whole check of a chain on this installation",
}

#: How far a chain of foreign keys is followed (the longest today is five links).
MAX_DEPTH = 8


def organization_model() -> type[models.Model]:
    return apps.get_model(ORGANIZATION_LABEL)


def is_project_app(config: AppConfig) -> bool:
    """An app whose code is part of this repository, not an installed package."""
    path = Path(config.path).resolve()
    base = Path(settings.BASE_DIR).resolve()
    return path.is_relative_to(base) and not {"site-packages", ".venv"} & set(path.parts)


def project_models() -> list[type[models.Model]]:
    """Every concrete model of the project's apps, in the registry's order."""
    return [
        model
        for config in apps.get_app_configs()
        if is_project_app(config)
        for model in config.get_models()
        if not model._meta.proxy and model._meta.label_lower not in DERIVED_TABLES
    ]


def label(model: type[models.Model]) -> str:
    return model._meta.label_lower


def forward_relations(model: type[models.Model]) -> list[models.Field]:
    """The model's own foreign keys and one-to-one fields (columns it holds)."""
    return [
        f for f in model._meta.concrete_fields if f.is_relation and (f.many_to_one or f.one_to_one)
    ]


def soft_link(model: type[models.Model]) -> models.Field | None:
    """A plain number column named ``organization_id`` (not a foreign key)."""
    for f in model._meta.concrete_fields:
        if f.attname == SOFT_LINK and not f.is_relation:
            return f
    return None


@cache
def organization_paths(model: type[models.Model]) -> tuple[str, ...]:
    """Every lookup path from ``model`` to the organization's id, e.g.
    ``("sale__occasion__organization",)``; empty when there is none (a shared model)."""
    return tuple(sorted(set(_paths(model, (model,))), key=lambda p: (p.count("__"), p)))


def _paths(model: type[models.Model], seen: tuple[type[models.Model], ...]) -> Iterable[str]:
    organization = organization_model()
    if model is organization:
        yield "pk"
        return
    if soft_link(model) is not None:
        yield SOFT_LINK
    if len(seen) > MAX_DEPTH:
        return
    project = set(project_models())
    for field in forward_relations(model):
        target = field.related_model
        if target is organization:
            yield field.name
        elif target in project and target not in seen:
            for rest in _paths(target, (*seen, target)):
                yield field.name if rest == "pk" else f"{field.name}__{rest}"


def organization_filter(model: type[models.Model], organization_id: int) -> Q | None:
    """The rows of ``model`` that are the organization's, or None for a shared model."""
    paths = organization_paths(model)
    if not paths:
        return None
    q = Q()
    for path in paths:
        q |= Q(**{path: organization_id})
    return q


def no_organization_filter(model: type[models.Model]) -> Q:
    """The rows of an organization's model that lead to no organization at all (the
    Commission's own audit chain, a refusal of a Commission-wide action)."""
    q = Q()
    for path in organization_paths(model):
        q &= Q(**{f"{path}__isnull": True})
    return q


def organization_models() -> list[type[models.Model]]:
    """The project's models whose rows belong to an organization, dependencies first."""
    return dependency_order([m for m in project_models() if organization_paths(m)])


def organization_queryset(model: type[models.Model], organization_id: int) -> models.QuerySet:
    q = organization_filter(model, organization_id)
    if q is None:
        raise ValueError(f"{label(model)} is not an organization's model.")
    # Forward foreign keys never multiply rows: one row per record, however many paths.
    return model._base_manager.filter(q)


def dependency_order(models_: Iterable[type[models.Model]]) -> list[type[models.Model]]:
    """``models_`` with every model after the models its foreign keys point to (a cycle, which
    the database's deferred constraints allow, is broken in the registry's order)."""
    pending = list(dict.fromkeys(models_))
    members = set(pending)
    done: list[type[models.Model]] = []
    placed: set[type[models.Model]] = set()
    while pending:
        for model in pending:
            needs = {
                f.related_model
                for f in forward_relations(model)
                if f.related_model in members and f.related_model is not model
            }
            if needs <= placed:
                break
        else:
            model = pending[0]
        pending.remove(model)
        done.append(model)
        placed.add(model)
    return done


@dataclass(frozen=True)
class Reference:
    """A foreign key (or many-to-many) from one exported model to another model."""

    model: type[models.Model]
    field: models.Field
    target: type[models.Model]
    many: bool = False


def references(model: type[models.Model]) -> list[Reference]:
    refs = [Reference(model, f, f.related_model) for f in forward_relations(model)]
    refs += [
        Reference(model, f, f.related_model, many=True)
        for f in model._meta.many_to_many
        if f.remote_field.through._meta.auto_created
    ]
    return refs
