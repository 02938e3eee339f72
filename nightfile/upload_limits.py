"""A night file uploaded is never held beyond its ceiling: on the upload page's POST, the file's
first ``files.MAX_BYTES + 1`` bytes are kept in memory and the rest of it is read from the
request and dropped, so a 1 GB upload takes neither 1 GB of memory nor of disk (Django would
otherwise write an upload over 2.5 MB to a temporary file, whole). The form still learns the
file's whole size, and refuses it in one line. Installed before the CSRF check, which reads the
request's form first (``MIDDLEWARE`` in beano/settings.py)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from django.core.files.uploadedfile import InMemoryUploadedFile
from django.core.files.uploadhandler import FileUploadHandler
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve

from nightfile import files

#: The pages whose upload is a night file.
PAGES = frozenset({"night_upload"})


class KeepAtMost(FileUploadHandler):
    """Keeps at most ``files.MAX_BYTES + 1`` bytes of each file, in memory."""

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.kept = bytearray()

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        room = files.MAX_BYTES + 1 - len(self.kept)
        if room > 0:
            self.kept += raw_data[:room]
        return None  # nothing for a handler after this one

    def file_complete(self, file_size: int) -> InMemoryUploadedFile:
        return InMemoryUploadedFile(
            file=io.BytesIO(bytes(self.kept)),
            field_name=self.field_name,
            name=self.file_name,
            content_type=self.content_type,
            size=file_size,  # the whole file's, for the form's refusal
            charset=self.charset,
            content_type_extra=self.content_type_extra,
        )


def _night_file_page(request: HttpRequest) -> bool:
    if request.method != "POST" or request.content_type != "multipart/form-data":
        return False
    try:
        return resolve(request.path_info).url_name in PAGES
    except Resolver404:
        return False


class NightFileCeilingMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _night_file_page(request):
            request.upload_handlers = [KeepAtMost(request)]
        return self.get_response(request)
