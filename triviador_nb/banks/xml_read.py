"""Reading a teacher's XML file safely, and walking it without namespaces.

XML from outside is parsed with defusedxml (entity expansion such as
"billion laughs", external entities and DTD tricks are refused), never with
the standard library's parser alone. Element names are compared without
their namespace (``{http://www.imsglobal.org/xsd/imsqti_v2p1}choiceInteraction``
is ``choiceInteraction``), as QTI exports differ in the namespaces they use.
"""

from __future__ import annotations

from collections.abc import Iterator
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring


class XmlError(ValueError):
    """An XML file that cannot be read; ``str(error)`` says why and where (line, column)."""


def parse_xml(data: bytes | str) -> Element:
    """The root element of an XML document.

    Raises:
        XmlError: the XML is not well-formed (the message gives line and
            column), or uses entity declarations or external references.
    """
    try:
        return fromstring(data)
    except ParseError as exc:
        line, column = getattr(exc, "position", (0, 0))
        reason = str(exc).split(":")[0]
        return _raise(f"the XML is damaged at line {line}, column {column + 1} ({reason})")
    except DefusedXmlException:
        return _raise("the XML declares entities or refers to other files, which are not read (for safety)")


def _raise(message: str) -> Element:
    raise XmlError(message)


def local(element: Element) -> str:
    """The element's name without its namespace."""
    tag = element.tag if isinstance(element.tag, str) else ""
    return tag.rsplit("}", 1)[-1]


def children(element: Element | None, name: str) -> list[Element]:
    """The element's children named ``name`` (any namespace)."""
    return [] if element is None else [child for child in element if local(child) == name]


def child(element: Element | None, name: str) -> Element | None:
    """The first child named ``name``, or None."""
    found = children(element, name)
    return found[0] if found else None


def descendants(element: Element | None, name: str) -> Iterator[Element]:
    """Every element below (and including) ``element`` named ``name``, in document order."""
    if element is not None:
        yield from (node for node in element.iter() if local(node) == name)


def all_text(element: Element | None) -> str:
    """The text of the element and everything in it, whitespace runs as one space."""
    return "" if element is None else " ".join("".join(element.itertext()).split())
