"""The Senseval-2 / Senseval-3 English lexical-sample format.

A data file is a sequence of ``<lexelt item="activate.v">`` elements, usually with no single
root element (one is tolerated)::

    <lexelt item="activate.v">
    <instance id="activate.v.bnc.00024693" docsrc="BNC">
    <answer instance="activate.v.bnc.00024693" senseid="38201"/>
    <context>
    ... which you step on to <head>activate</head> it . ...
    </context>
    </instance>

Training files give zero or more ``<answer>`` per instance (several: any listed sense is right;
``U``: unassignable); test files give none and a separate key file holds lines
``lexelt instance_id sense [sense ...]``. The text carries raw SGML entities such as
``&frac12 ;`` (known HTML names become their character, unknown ones stay as written) and bare
``&``. When an instance holds several ``<head>`` elements, the first is the target and the others
are plain text; any other element inside ``<context>`` (``<p>``, ``<sat>``) is read as its text.

Each instance becomes an ``Instance`` whose lemma and coarse POS come from the lexelt item
(``activate.v`` -> ``activate``, VERB; letters n, v, a/j/s, r) and whose ``meta`` keeps
``("lexelt", item)``, ``("docsrc", ...)`` and ``("source", "file:line")``. Gold senses keep the
order of the file; training uses the first (``instance_labels``), scoring accepts any of them.

The dictionary file (Senseval-3's ``EnglishLS.dictionary.xml``) lists each lexelt's senses as
``<sense id=".." gloss=".." synset=".."/>``; ``read_dictionary`` returns
``{lexelt item: [(sense id, gloss, synonyms), ...]}`` for ``wsd.corpora.lexsample_inventory``.
Every error names the file and line.

Input contract: the file is UTF-8 unless a byte-order mark or the XML declaration says
otherwise (bytes that do not decode are an error, never replaced). A ``<!DOCTYPE>`` naming an
external DTD is ignored; one with an internal subset, and any ``<!ENTITY>`` declaration, is
refused, as ``defusedxml`` refuses them for the framework reader: the format needs no
declarations, and entity expansion can exhaust memory. Instance ids, lexelt items and sense ids
may not hold whitespace (key and answer files separate fields by it); an instance has one
``<context>``; lexelts do not nest.
"""

from __future__ import annotations

import codecs
import html.entities
import os
import re
import xml.parsers.expat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from wsd.instance import Instance, token_spans
from wsd.persistence import decode_text, read_text, write_text_atomic

PathLike = str | os.PathLike
LexicalKey = dict[str, tuple[str, tuple[str, ...]]]  # instance id -> (lexelt, senses)

POS_LETTERS = {"n": "NOUN", "v": "VERB", "a": "ADJ", "j": "ADJ", "s": "ADJ", "r": "ADV"}
UNASSIGNABLE = "U"
_ROOT = "wsd-lexsample-root"
_PROLOGUE = re.compile(r"<\?xml[^>]*\?>|<!DOCTYPE[^>]*>", re.IGNORECASE)
_QUOTED = r"""(?:"[^"]*"|'[^']*')"""
_PLAIN_DOCTYPE = re.compile(  # a DOCTYPE naming at most an external DTD: no internal subset
    rf"<!DOCTYPE\s+[\w.:-]+(?:\s+(?:SYSTEM\s+{_QUOTED}|PUBLIC\s+{_QUOTED}\s+{_QUOTED}))?\s*>",
    re.IGNORECASE)
_DECLARATIONS = re.compile(r"<!(?:DOCTYPE|ENTITY)\b", re.IGNORECASE)
_DECLARED_ENCODING = re.compile(rb"""\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z][\w.-]*)["']""")
_AMPERSAND = re.compile(r"&(?:(#\d+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*)\s*;)?")
_XML_ENTITIES = {"amp", "lt", "gt", "quot", "apos"}


def parse_lexelt(item: str) -> tuple[str, str | None]:
    """``(lemma, coarse POS)`` of a lexelt item: 'activate.v' -> ('activate', 'VERB').

    An item without a known POS letter after its last dot keeps the POS unknown (None).
    """
    stem, dot, letter = item.strip().rpartition(".")
    if dot and letter.lower() in POS_LETTERS and stem:
        return stem.lower(), POS_LETTERS[letter.lower()]
    return item.strip().lower(), None


def _entity(match: re.Match) -> str:
    """XML for one ``&...;`` of the raw text: XML entities and character references as they
    are, known HTML names as their character, anything else (and a bare ``&``) as text."""
    name = match.group(1)
    if name is None:
        return "&amp;"
    if name.startswith("#") or name in _XML_ENTITIES:
        return f"&{name};"
    if name in html.entities.name2codepoint:
        char = chr(html.entities.name2codepoint[name])
        return {"&": "&amp;", "<": "&lt;", ">": "&gt;"}.get(char, char)
    return f"&amp;{name};"


def _decoded(path: Path) -> str:
    """The file's text: UTF-8, or the encoding a byte-order mark (``decode_text``) or the XML
    declaration gives; ValueError naming file:line for bytes that do not decode (nothing is
    silently replaced)."""
    raw = path.read_bytes()
    declared = _DECLARED_ENCODING.match(raw.removeprefix(codecs.BOM_UTF8))
    encoding = declared.group(1).decode("ascii") if declared else "utf-8"
    try:
        encoding = codecs.lookup(encoding).name
    except LookupError:
        raise ValueError(f"{path}:1: unknown encoding {encoding!r} in the XML declaration") \
            from None
    return decode_text(raw, str(path), "utf-8-sig" if encoding == "utf-8" else encoding)


def _refuse_declarations(text: str, path: Path) -> None:
    """ValueError for a DOCTYPE with an internal subset or any ENTITY declaration."""
    for match in _DECLARATIONS.finditer(text):
        if not _PLAIN_DOCTYPE.match(text, match.start()):
            line = text.count("\n", 0, match.start()) + 1
            raise ValueError(
                f"{path}:{line}: DOCTYPE internal subsets and ENTITY declarations are refused "
                "(a lexical-sample file needs none, and entity expansion can exhaust memory)")


def _as_xml(text: str) -> str:
    """The file's text as one well-formed document with the same line numbers: prologue blanked
    (newlines kept), raw entities repaired, everything wrapped in one synthetic root."""
    text = _PROLOGUE.sub(lambda m: "\n" * m.group().count("\n"), text)
    return f"<{_ROOT}>{_AMPERSAND.sub(_entity, text)}</{_ROOT}>"


def _parse(path: Path, start: Callable, end: Callable, chars: Callable) -> None:
    """Run expat over ``path`` with the three handlers; XML errors name file:line:column."""
    parser = xml.parsers.expat.ParserCreate()
    parser.buffer_text = True
    parser.StartElementHandler = lambda name, attrs: start(name, attrs, parser.CurrentLineNumber)
    parser.EndElementHandler = lambda name: end(name, parser.CurrentLineNumber)
    parser.CharacterDataHandler = chars
    text = _decoded(path)
    _refuse_declarations(text, path)
    try:
        parser.Parse(_as_xml(text), True)
    except xml.parsers.expat.ExpatError as error:
        raise ValueError(
            f"{path}:{error.lineno}:{error.offset}: malformed lexical-sample file "
            f"({xml.parsers.expat.ErrorString(error.code)})"
        ) from None


@dataclass
class _Pending:
    """The instance being read: its attributes, answers and context pieces."""

    id: str
    line: int
    lexelt: str
    docsrc: str | None
    answers: list[str] = field(default_factory=list)
    pieces: list[str] = field(default_factory=list)
    head: tuple[int, int] | None = None  # (first piece, end piece) of the first <head>
    heads: int = 0
    in_head: bool = False
    had_context: bool = False


class _Reader:
    """Expat handlers that turn lexelt/instance/answer/context/head into Instances."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.instances: list[Instance] = []
        self.lexelt: str | None = None
        self.current: _Pending | None = None
        self.in_context = False
        self.seen: dict[str, int] = {}

    def fail(self, line: int, problem: str) -> ValueError:
        return ValueError(f"{self.path}:{line}: {problem}")

    def start(self, name: str, attrs: dict, line: int) -> None:
        if name == "lexelt":
            if self.lexelt is not None:
                raise self.fail(line, f"<lexelt> inside lexelt {self.lexelt!r}")
            self.lexelt = _field(attrs, "item", "<lexelt>", self.fail, line)
        elif name == "instance":
            self._start_instance(attrs, line)
        elif name == "answer":
            self._answer(attrs, line)
        elif name == "context":
            if self.current is None:
                raise self.fail(line, "<context> outside an <instance>")
            if self.current.had_context:
                raise self.fail(line, f"a second <context> in instance {self.current.id!r}")
            self.in_context = True
            self.current.had_context = True
        elif name == "head" and self.in_context:
            pending = self.current
            pending.heads += 1
            if pending.heads == 1:
                pending.in_head = True
                pending.head = (len(pending.pieces), len(pending.pieces))

    def _start_instance(self, attrs: dict, line: int) -> None:
        if self.lexelt is None:
            raise self.fail(line, "<instance> outside a <lexelt>")
        if self.current is not None:
            raise self.fail(line, f"<instance> inside instance {self.current.id!r}")
        instance_id = _field(attrs, "id", "<instance>", self.fail, line)
        if instance_id in self.seen:
            raise self.fail(line, f"instance id {instance_id!r} already used on line "
                                  f"{self.seen[instance_id]}")
        self.seen[instance_id] = line
        self.current = _Pending(instance_id, line, self.lexelt, attrs.get("docsrc"))

    def _answer(self, attrs: dict, line: int) -> None:
        pending = self.current
        if pending is None:
            raise self.fail(line, "<answer> outside an <instance>")
        sense = _field(attrs, "senseid", "<answer>", self.fail, line)
        named = attrs.get("instance", pending.id).strip()
        if named != pending.id:
            raise self.fail(line, f"<answer instance={named!r}> inside instance {pending.id!r}")
        if sense not in pending.answers:
            pending.answers.append(sense)

    def chars(self, text: str) -> None:
        if self.in_context:
            self.current.pieces.append(text)

    def end(self, name: str, line: int) -> None:
        pending = self.current
        if name == "head" and pending is not None and pending.in_head:
            pending.in_head = False
            pending.head = (pending.head[0], len(pending.pieces))
        elif name == "context":
            self.in_context = False
        elif name == "instance":
            self.instances.append(self._build(pending, line))
            self.current = None
        elif name == "lexelt":
            self.lexelt = None

    def _build(self, pending: _Pending, line: int) -> Instance:
        where = f"instance {pending.id!r} (line {pending.line})"
        if not pending.had_context:
            raise self.fail(line, f"{where} has no <context>")
        if pending.head is None:
            raise self.fail(line, f"{where}: its <context> has no <head> marking the target")
        first, last = pending.head
        left = "".join(pending.pieces[:first])
        target = "".join(pending.pieces[first:last])
        right = "".join(pending.pieces[last:])
        head_tokens = _tokens(target)
        if not head_tokens:
            raise self.fail(line, f"{where}: its <head> is empty")
        left_tokens = _tokens(left)
        lemma, pos = parse_lexelt(pending.lexelt)
        meta = [("lexelt", pending.lexelt), ("source", f"{self.path}:{pending.line}")]
        if pending.docsrc is not None:
            meta.append(("docsrc", pending.docsrc))
        return Instance(
            id=pending.id,
            tokens=(*left_tokens, *head_tokens, *_tokens(right)),
            span=(len(left_tokens), len(left_tokens) + len(head_tokens)),
            lemma=lemma,
            senses=tuple(pending.answers),
            target_pos=pos,
            meta=tuple(meta),
        )


def _field(attrs: dict, name: str, element: str, fail: Callable, line: int) -> str:
    """An id-like attribute: present, not empty, no whitespace inside (key and answer files
    separate their fields by whitespace)."""
    value = attrs.get(name, "").strip()
    if not value:
        raise fail(line, f"{element} has no {name} attribute")
    if value != "".join(value.split()):
        raise fail(line, f"{element} {name} {value!r} holds whitespace; key and answer files "
                         "could not tell its parts from the next field")
    return value


def _tokens(text: str) -> list[str]:
    return [text[start:end] for start, end in token_spans(text)]


def lexelt_of(instance: Instance) -> str:
    """The lexelt item an instance was read under ('activate.v'); ``lemma.pos`` letter when the
    instance did not come from a lexical-sample file."""
    for name, value in instance.meta:
        if name == "lexelt":
            return value
    letter = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}.get(instance.target_pos or "")
    return f"{instance.lemma}.{letter}" if letter else instance.lemma


def read_key(path: PathLike) -> LexicalKey:
    """``{instance id: (lexelt, senses)}`` from a key file of lines
    ``lexelt instance_id sense [sense ...]`` (``U`` = unassignable; text after ``!!`` is a
    comment, as scorer2 allows). Errors name file:line."""
    key: LexicalKey = {}
    first_line: dict[str, int] = {}
    for number, line in enumerate(read_text(path).split("\n"), start=1):
        fields = line.split("!!", 1)[0].split()
        if not fields:
            continue
        if len(fields) < 3:
            raise ValueError(
                f"{path}:{number}: expected 'lexelt instance_id sense [sense ...]', "
                f"got {line.strip()!r}"
            )
        lexelt, instance_id, *senses = fields
        if instance_id in key:
            raise ValueError(f"{path}:{number}: instance id {instance_id!r} already on "
                             f"line {first_line[instance_id]}")
        first_line[instance_id] = number
        key[instance_id] = (lexelt, tuple(dict.fromkeys(senses)))
    return key


def read_lexsample(path: PathLike, key: PathLike | Mapping | None = None) -> list[Instance]:
    """Every instance of a lexical-sample data file, in file order.

    Gold senses come from the inline ``<answer>`` elements, or from ``key`` (a key file path or
    ``read_key``'s mapping), which then replaces them. Every key id must be an instance of the
    file, with the same lexelt, and every instance must have a key line (a mismatched pair of
    files is a mistake worth stopping for). Raises ValueError naming file:line.
    """
    path = Path(path)
    reader = _Reader(path)
    _parse(path, reader.start, reader.end, reader.chars)
    if reader.current is not None:
        raise ValueError(f"{path}:{reader.current.line}: instance {reader.current.id!r} is "
                         "not closed")
    if not reader.instances:
        raise ValueError(f"{path}: no <instance> found; is this a lexical-sample file?")
    if key is None:
        return reader.instances
    gold = read_key(key) if not isinstance(key, Mapping) else key
    return _with_key(reader.instances, gold, path, key if not isinstance(key, Mapping) else None)


def _with_key(instances: list[Instance], gold: Mapping, path: Path,
              key_path: PathLike | None) -> list[Instance]:
    source = key_path or "the key"
    known = {inst.id: inst for inst in instances}
    extra = [instance_id for instance_id in gold if instance_id not in known]
    if extra:
        raise ValueError(f"{source}: {len(extra)} id(s) are not instances of {path} (e.g. "
                         f"{', '.join(extra[:5])}); are these files a pair?")
    missing = [inst.id for inst in instances if inst.id not in gold]
    if missing:
        raise ValueError(f"{source} has no line for {len(missing)} instance(s) of {path} "
                         f"(e.g. {', '.join(missing[:5])}); are these files a pair?")
    result = []
    for inst in instances:
        lexelt, senses = gold[inst.id]
        if lexelt != lexelt_of(inst):
            raise ValueError(f"{source}: instance {inst.id!r} is listed under {lexelt!r}, but "
                             f"{path} has it under {lexelt_of(inst)!r}")
        result.append(inst.with_senses(senses))
    return result


def load_lexsample(spec: PathLike) -> list[Instance]:
    """The corpus ``lexsample:PATH``: PATH's instances, with gold senses from ``PATH.key`` when
    that file exists (Senseval-3 names the test key so), else from the inline answers."""
    path = Path(spec)
    if not path.is_file():
        raise ValueError(f"lexsample:{spec}: no such file")
    key = path.with_name(path.name + ".key")
    return read_lexsample(path, key if key.is_file() else None)


def read_dictionary(path: PathLike) -> dict[str, list[tuple[str, str, str]]]:
    """``{lexelt item: [(sense id, gloss, synonyms), ...]}`` from a lexical-sample dictionary
    (``<lexelt item=..><sense id=.. gloss=.. synset=../>``; a gloss may also be the sense's
    text). Senses keep file order; an id twice in one lexelt, or a sense without id or gloss,
    raises ValueError naming file:line."""
    path = Path(path)
    entries: dict[str, list[tuple[str, str, str]]] = {}
    state: dict = {"lexelt": None, "sense": None, "text": []}

    def fail(line: int, problem: str) -> ValueError:
        return ValueError(f"{path}:{line}: {problem}")

    def start(name: str, attrs: dict, line: int) -> None:
        if name == "lexelt":
            item = _field(attrs, "item", "<lexelt>", fail, line)
            state["lexelt"] = item
            entries.setdefault(item, [])
        elif name == "sense":
            if state["lexelt"] is None:
                raise ValueError(f"{path}:{line}: <sense> outside a <lexelt>")
            sense_id = _field(attrs, "id", "<sense>", fail, line)
            if any(known == sense_id for known, _, _ in entries[state["lexelt"]]):
                raise ValueError(f"{path}:{line}: sense {sense_id!r} is listed twice under "
                                 f"{state['lexelt']!r}")
            state["sense"] = (sense_id, attrs.get("gloss", ""), attrs.get("synset", ""), line)
            state["text"] = []

    def end(name: str, line: int) -> None:
        if name == "sense" and state["sense"] is not None:
            sense_id, gloss, synonyms, first = state["sense"]
            gloss = " ".join((gloss or "".join(state["text"])).split())
            if not gloss:
                raise ValueError(f"{path}:{first}: sense {sense_id!r} has no gloss")
            entries[state["lexelt"]].append((sense_id, gloss, " ".join(synonyms.split())))
            state["sense"] = None
        elif name == "lexelt":
            state["lexelt"] = None

    def chars(text: str) -> None:
        if state["sense"] is not None:
            state["text"].append(text)

    _parse(path, start, end, chars)
    if not any(entries.values()):
        raise ValueError(f"{path}: no <sense> found; is this a lexical-sample dictionary?")
    return entries


def write_lexsample(path: PathLike, instances: Sequence[Instance], answers: bool = True) -> None:
    """Write instances in the lexical-sample format (``read_lexsample`` reads them back): one
    ``<lexelt>`` per lexelt in first-seen order, tokens joined by spaces, the target in
    ``<head>``, the gold senses as ``<answer>`` elements unless ``answers`` is False. The file
    is written whole or not at all (a temporary file renamed into place)."""
    groups: dict[str, list[Instance]] = {}
    for inst in instances:
        groups.setdefault(lexelt_of(inst), []).append(inst)
    lines = []
    for lexelt, group in groups.items():
        lines.append(f"<lexelt item={quoteattr(lexelt)}>")
        for inst in group:
            docsrc = dict(inst.meta).get("docsrc")
            source = f" docsrc={quoteattr(docsrc)}" if docsrc is not None else ""
            lines.append(f"<instance id={quoteattr(inst.id)}{source}>")
            lines += [f"<answer instance={quoteattr(inst.id)} senseid={quoteattr(sense)}/>"
                      for sense in (inst.senses if answers else ())]
            start, end = inst.span
            text = " ".join((*map(escape, inst.tokens[:start]),
                             "<head>" + escape(inst.target) + "</head>",
                             *map(escape, inst.tokens[end:])))
            lines += ["<context>", text, "</context>", "</instance>"]
        lines.append("</lexelt>")
    write_text_atomic(path, "\n".join(lines) + "\n")
