"""The layers hold for every kind of dependency, not only imports (``lint-imports`` sees those):
a lower layer's Python reversing or redirecting to a URL name of a higher layer's ``urls.py``
(by ``reverse``, ``reverse_lazy``, ``redirect``, ``resolve_url`` or a function of the code
passing its argument on to one), naming a higher layer's template; a template of a lower layer
naming a higher layer's URL (``{% url %}``) or template (``{% include %}``, ``{% extends %}``);
and a lower app's model holding a foreign key (or one-to-one, many-to-many) to a higher app's
model. The order is the import-linter ``layers`` contract's in ``pyproject.toml``; the shared
helpers of its "import no app" contract sit below every layer."""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from django.apps import apps
from django.urls import URLPattern, URLResolver, get_resolver

ROOT = Path(__file__).resolve().parent.parent
_CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
#: Bottom first: a layer may name what is at its own level or below.
LAYERS: tuple[str, ...] = tuple(
    reversed(next(c for c in _CONTRACTS["contracts"] if c["id"] == "layers")["layers"])
)
SHARED: tuple[str, ...] = tuple(
    next(c for c in _CONTRACTS["contracts"] if c["id"] == "rules-import-no-app")["source_modules"]
)
#: A template folder (``templates/<folder>/``) and the layer whose pages render it.
TEMPLATE_FOLDERS = {"rules": "beano.rules", "accounts": "beano.accounts"} | {
    layer: layer for layer in LAYERS if "." not in layer
}
REVERSERS = {"reverse", "reverse_lazy", "redirect", "resolve_url"}
TEMPLATE_TAG = re.compile(r"{%\s*(url|include|extends)\s+(['\"])([^'\"]+)\2")

#: What still runs up a layer, each with why and the plan. The list can only shrink: an entry
#: no longer found fails the test as a break not listed does.
ALLOWED: dict[str, str] = {}


def level(module: str) -> int | None:
    """The module's level: -1 for a shared helper, the index of its layer, None outside both."""
    best = [layer for layer in LAYERS if module == layer or module.startswith(layer + ".")]
    if best:
        return LAYERS.index(max(best, key=len))
    return -1 if any(module == s or module.startswith(s + ".") for s in SHARED) else None


def url_owners(resolver: URLResolver | None = None, owner: str | None = None) -> dict[str, str]:
    """Each URL name and the layer whose ``urls.py`` declares it (a pattern included as a list,
    by its view's module); the project's own in ``beano.urls`` (sign-in, admin) are no layer's."""
    out: dict[str, str] = {}
    for pattern in (resolver or get_resolver()).url_patterns:
        if resolver is None and isinstance(pattern, URLPattern):
            continue
        if isinstance(pattern, URLResolver):
            conf = pattern.urlconf_name
            at = level(conf.__name__) if isinstance(conf, ModuleType) else None
            inner = LAYERS[at] if at is not None and at >= 0 else None
            inside = url_owners(pattern, inner or owner)
            if pattern.namespace:  # named ``namespace:name`` (the admin's ``admin:login``)
                inside = {f"{pattern.namespace}:{name}": at for name, at in inside.items()}
            out = inside | out  # the first pattern of a name is the one reversed
        elif isinstance(pattern, URLPattern) and pattern.name:
            found = owner
            if found is None and not isinstance(resolver.urlconf_name, ModuleType):
                at = level(pattern.callback.__module__)
                found = LAYERS[at] if at is not None and at >= 0 else None
            if found:
                out.setdefault(pattern.name, found)
    return out


def _above(there: int | None, own: int) -> bool:
    return there is not None and there > own


def template_level(name: str) -> int | None:
    folder = name.split("/", 1)[0] if "/" in name else ""
    layer = TEMPLATE_FOLDERS.get(folder)
    return LAYERS.index(layer) if layer else None


def python_files() -> Iterator[tuple[str, Path]]:
    """Every module of a layer or a shared helper (not migrations), with its dotted name."""
    for path in sorted(ROOT.glob("**/*.py")):
        rel = path.relative_to(ROOT)
        if (
            rel.parts[0] in {".venv", "tests", "bench", "var", "static"}
            or "migrations" in rel.parts
        ):
            continue
        module = ".".join(rel.with_suffix("").parts).removesuffix(".__init__")
        if level(module) is not None:
            yield module, path


def _called(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def reversing_functions(trees: dict[str, ast.Module]) -> dict[str, int]:
    """The functions (by name) that pass a parameter on to a reverse: which argument is the
    URL name (``floor_bar._url``, ``beano.links.page``, ``org_page``, ...)."""
    found = dict.fromkeys(REVERSERS, 0)
    changed = True
    while changed:
        changed = False
        for tree in trees.values():
            for fn in ast.walk(tree):
                if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) or fn.name in found:
                    continue
                params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
                for call in ast.walk(fn):
                    if isinstance(call, ast.Call) and _called(call) in found:
                        at = found[_called(call)]
                        arg = call.args[at] if len(call.args) > at else None
                        if isinstance(arg, ast.Name) and arg.id in params:
                            found[fn.name] = params.index(arg.id)
                            changed = True
                            break
    return found


def python_breaks(owners: dict[str, str]) -> set[str]:
    trees = {module: ast.parse(path.read_text()) for module, path in python_files()}
    reversers = reversing_functions(trees)
    out = set()
    for module, tree in trees.items():
        own = level(module)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called(node) in reversers:
                at = reversers[_called(node)]
                arg = node.args[at] if len(node.args) > at else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    owner = owners.get(arg.value)
                    if owner and LAYERS.index(owner) > own:
                        out.add(f"python {module}: url {arg.value} ({owner})")
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value.endswith(".html")
                and _above(template_level(node.value), own)
            ):
                out.add(f"python {module}: template {node.value}")
    return out


def template_breaks(owners: dict[str, str]) -> set[str]:
    out = set()
    for path in sorted((ROOT / "templates").rglob("*.html")):
        name = path.relative_to(ROOT / "templates").as_posix()
        own = template_level(name)
        if own is None:
            continue
        for tag, _, target in TEMPLATE_TAG.findall(path.read_text()):
            if tag == "url":
                owner = owners.get(target)
                if owner and LAYERS.index(owner) > own:
                    out.add(f"template {name}: url {target} ({owner})")
            elif _above(template_level(target), own):
                out.add(f"template {name}: {tag} {target}")
    return out


def model_breaks() -> set[str]:
    out = set()
    for model in apps.get_models():
        own = level(model.__module__)
        if own is None:
            continue
        for field in model._meta.get_fields(include_hidden=True):
            if not field.concrete or field.remote_field is None:
                continue
            target = field.related_model
            there = level(target.__module__)
            if there is not None and there > own:
                out.add(
                    f"model {model._meta.label}.{field.name}: foreign key to {target._meta.label}"
                )
    return out


def all_breaks() -> set[str]:
    owners = url_owners()
    return python_breaks(owners) | template_breaks(owners) | model_breaks()


def test_no_layer_depends_on_a_layer_above_it_beyond_imports():
    found = all_breaks()
    new = sorted(found - set(ALLOWED))
    mended = sorted(set(ALLOWED) - found)
    assert not new, "a lower layer depends on one above it:\n" + "\n".join(new)
    assert not mended, "mended: take these off ALLOWED:\n" + "\n".join(mended)


def test_the_map_reads_the_layers_and_the_urls():
    owners = url_owners()
    assert LAYERS[0] == "beano.rules" and LAYERS[-1] == "beano.management"
    assert owners["reports_home"] == "reports" and owners["inspector_dashboard"] == "inspections"
    assert owners["record_history"] == "inspections"
    assert owners["rules_catalog"] == "beano.rules" and len(owners) > 100
    assert level("beano.links") == -1
    assert level("equipment.models") == LAYERS.index("equipment")
    assert LAYERS.index("occasions") < LAYERS.index("equipment") < LAYERS.index("games")


@pytest.fixture
def fake_root(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    monkeypatch.setattr("tests.test_layers_beyond_imports.ROOT", tmp_path)
    return tmp_path


def test_the_check_finds_python_naming_a_page_or_template_above(fake_root):
    module = fake_root / "organizations" / "x.py"
    module.parent.mkdir()
    module.write_text(
        "from django.urls import reverse\n"
        "def _to(name, pk):\n    return reverse(name, args=[pk])\n"
        "def go(pk):\n    return _to('reports_home', pk), 'inspections/dashboard.html'\n"
    )
    assert python_breaks(url_owners()) == {
        "python organizations.x: url reports_home (reports)",
        "python organizations.x: template inspections/dashboard.html",
    }


def test_the_check_finds_a_template_naming_a_page_or_template_above(fake_root):
    page = fake_root / "templates" / "occasions" / "x.html"
    page.parent.mkdir(parents=True)
    page.write_text(
        '{% extends "games/base.html" %}{% include "reports/_a.html" %}'
        "{% url 'report_closeout' 1 2 %}{% url 'occasion_detail' 1 2 %}{% include 'base.html' %}"
    )
    assert template_breaks(url_owners()) == {
        "template occasions/x.html: extends games/base.html",
        "template occasions/x.html: include reports/_a.html",
        "template occasions/x.html: url report_closeout (reports)",
    }
