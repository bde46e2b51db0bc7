"""Plain text from the HTML of a Moodle question (GIFT's ``[html]`` format).

The stdlib's :class:`html.parser.HTMLParser` reads the markup (it forgives
unclosed and stray tags, as browsers do) and :func:`html.unescape` turns
entities (``&eacute;``, ``&#233;``, ``&nbsp;``) into characters; tags are
dropped, line-breaking tags (``<p>``, ``<br>``, ``<div>``, ``<li>``...) become
spaces, ``<script>`` and ``<style>`` lose their content, and runs of
whitespace become one space. Pictures (``<img>``) are counted: the game
shows none.
"""

from __future__ import annotations

from html import unescape
from html.parser import HTMLParser

_BREAKS = frozenset({"p", "br", "div", "li", "ul", "ol", "tr", "td", "th", "table", "h1", "h2", "h3", "h4", "h5",
                     "h6", "blockquote", "pre", "hr"})
_HIDDEN = frozenset({"script", "style"})


class _TextParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.parts: list[str] = []
        self.hidden = 0
        self.images = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.images += tag == "img"
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag in _BREAKS:
            self.parts.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.images += tag == "img"
        if tag in _BREAKS:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in _BREAKS:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)

    def handle_entityref(self, name: str) -> None:
        self.handle_data(unescape(f"&{name};"))

    def handle_charref(self, name: str) -> None:
        self.handle_data(unescape(f"&#{name};"))


def html_to_text(markup: str) -> str:
    """``markup``'s text on one line: ``"<p>Caf&eacute;<br>au lait</p>"`` -> ``"Café au lait"``."""
    return html_text_and_images(markup)[0]


def html_text_and_images(markup: str) -> tuple[str, int]:
    """``(text, pictures)``: :func:`html_to_text` of ``markup`` and how many ``<img>`` tags it holds."""
    parser = _TextParser()
    parser.feed(markup)
    parser.close()
    return " ".join("".join(parser.parts).split()), parser.images
