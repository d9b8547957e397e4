"""Invitations to a table: a seat's link as a QR code, to scan from a phone at the table.

The code is drawn here, by the qrcode library, as SVG (no image library, no network):
the lobby posts the link it shows (its seat token stays out of any address, as in the
link itself, where it follows the ``#``) and gets the picture back. A link is short;
:data:`MAX_TEXT` bounds what one request may ask to be drawn.
"""

from __future__ import annotations

import qrcode
import qrcode.image.svg

#: characters a QR code is drawn for at most (a seat link is under 150)
MAX_TEXT = 600


class InviteError(ValueError):
    """A text that is not drawn: the message says why."""


def qr_svg(text) -> str:
    """``text`` as a QR code: an SVG document, black squares on a white ground with the
    quiet margin scanners need, error correction M (a smudged screen still scans)."""
    if not isinstance(text, str) or not text:
        raise InviteError("send the link to draw as text")
    if len(text) > MAX_TEXT:
        raise InviteError(f"a QR code is drawn for at most {MAX_TEXT} characters")
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4,
                         image_factory=qrcode.image.svg.SvgPathFillImage)
    code.add_data(text)
    code.make(fit=True)
    return code.make_image().to_string(encoding="unicode")
