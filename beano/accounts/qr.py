"""The provisioning QR code, drawn here as inline SVG (no image service, nothing external)."""

from __future__ import annotations

import qrcode
import qrcode.image.svg
from django.utils.safestring import SafeString, mark_safe


def qr_svg(data: str) -> SafeString:
    """An <svg> of ``data``: one black path on a transparent ground, sized by CSS
    (``.qr-code svg``); the quiet zone is part of the picture."""
    image = qrcode.make(
        data,
        image_factory=qrcode.image.svg.SvgPathImage,
        error_correction=qrcode.constants.ERROR_CORRECT_M,
    )
    svg = image.to_string(encoding="unicode")
    # Our own markup from qrcode (a path of coordinates), never user input.
    return mark_safe(svg.replace("<svg ", '<svg role="img" aria-label="QR code to scan" ', 1))
