"""Uploaded documents: judged by what they hold, served as downloads.

The documents an organization or the Commission keeps here (proofs of ownership and card
invoices, 961 CMR 3.04(4)(e); raffle permits, 3.04(9)(a); the Director's letters, leases
among them) are scans: PDF, PNG or JPEG (and TIFF for the Director's letters). A name says
nothing of a file's content, and a browser that opens a file decides its type by the content if
it may. An HTML page or an SVG with a script, uploaded as ``receipt.pdf`` and opened from this
site, would run as this site, with the session of whoever opened it: an inspector's, a head's.

So an upload is accepted only if its first bytes are those of the type its extension names
(``ContentMatchesName``, on every upload form and the admin's), and every document is served
(``serve_document``) as an attachment, with ``X-Content-Type-Options: nosniff`` and the type
its content shows (``application/octet-stream`` when it shows none: a file kept from before the
check), never stored by a shared laptop's browser.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models.fields.files import FieldFile
from django.http import FileResponse, Http404

#: Extension → (content type, what the page calls it, the first bytes a file of it starts with).
SIGNATURES: dict[str, tuple[str, str, tuple[bytes, ...]]] = {
    "pdf": ("application/pdf", "a PDF", (b"%PDF-",)),
    "png": ("image/png", "a PNG image", (b"\x89PNG\r\n\x1a\n",)),
    "jpg": ("image/jpeg", "a JPEG image", (b"\xff\xd8\xff",)),
    "jpeg": ("image/jpeg", "a JPEG image", (b"\xff\xd8\xff",)),
    "tif": ("image/tiff", "a TIFF image", (b"II*\x00", b"MM\x00*")),
    "tiff": ("image/tiff", "a TIFF image", (b"II*\x00", b"MM\x00*")),
}
#: Enough of the file's start for every signature above.
HEAD_BYTES = 16
#: What a document whose content is not what its name says is served as: bytes to save.
UNKNOWN_TYPE = "application/octet-stream"


def _extension(name: str) -> str:
    return PurePath(name).suffix.lower().lstrip(".")


def content_type(name: str, head: bytes) -> str | None:
    """The content type of a file named ``name`` that starts with ``head``, if its content is
    what its extension says; None otherwise (or for an extension not known here)."""
    known = SIGNATURES.get(_extension(name))
    if known is None:
        return None
    kind, _, starts = known
    return kind if head.startswith(starts) else None


def _head(file: Any) -> bytes:
    """The file's first bytes, leaving it where it was for whoever reads it next."""
    position = file.tell()
    file.seek(0)
    head = file.read(HEAD_BYTES)
    file.seek(position)
    return head


class ContentMatchesName:
    """A form field's validator: the uploaded file's content is what its extension names. The
    extension itself is checked by ``FileExtensionValidator`` next to it; an extension not in
    ``SIGNATURES`` is not accepted here either."""

    def __init__(self, extensions: list[str]) -> None:
        self.extensions = [e.lower() for e in extensions]

    def __call__(self, file: Any) -> None:
        extension = _extension(file.name)
        if extension not in self.extensions:
            return  # the extension validator says which are allowed
        if content_type(file.name, _head(file)) is None:
            label = SIGNATURES[extension][1] if extension in SIGNATURES else extension
            raise ValidationError(
                "“%(name)s” is not %(label)s: its content is not what its name says. "
                "Upload the scan itself (%(allowed)s).",
                code="content_mismatch",
                params={
                    "name": PurePath(file.name).name,
                    "label": label,
                    "allowed": ", ".join(sorted({e.upper() for e in self.extensions})),
                },
            )


def serve_document(file: FieldFile, *, missing: str) -> FileResponse:
    """The stored document as a download: an attachment, never sniffed, of the type its content
    shows, kept by no cache. ``missing`` is the 404's message for a record without a file."""
    if not file:
        raise Http404(missing)
    try:
        handle = file.open("rb")
    except FileNotFoundError as gone:
        raise Http404(f"{missing} (the file is missing from storage)") from gone
    name = PurePath(file.name).name
    kind = content_type(name, _head(handle)) or UNKNOWN_TYPE
    response = FileResponse(handle, as_attachment=True, filename=name, content_type=kind)
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response
