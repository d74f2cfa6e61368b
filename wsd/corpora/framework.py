"""The all-words WSD evaluation framework format (Raganato, Camacho-Collados & Navigli, 2017).

A dataset is ``<name>.data.xml`` (``corpus > text > sentence > wf | instance``, each token with a
lemma and a coarse universal POS tag) plus ``<name>.gold.key.txt`` (lines ``id key1 [key2 ...]``).
Each ``<instance>`` becomes one ``Instance`` whose context is its sentence: ``tokens`` are the
sentence's ``wf``/``instance`` surface forms, one token per element even when the surface text is a
multiword ("pointed out", "Fulton_County_Grand_Jury"), so ``span`` is always ``(i, i + 1)``.
Instances of one sentence share the same ``tokens``, ``pos`` and ``meta`` tuples; ``meta`` holds
the document and sentence ids and ``("lemmas", (lemma per token, ...))``, the XML's lemmas (a
token without one reads its lowercased text).

The XML is streamed with ``defusedxml``'s ``iterparse`` (a DOCTYPE or entity declaration is
refused, so no entity-expansion bomb can grow) and each sentence is freed once read, so SemCor
(226,036 instances) loads in seconds (see ``benchmarks/load_semcor.py``). An ``<instance>``
outside a ``<sentence>``, an instance id used twice, or an instance POS other than NOUN, VERB,
ADJ, ADV is refused: each would lose or corrupt an answer.
"""

from __future__ import annotations

import os
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from wsd.instance import Instance
from wsd.persistence import atomic_open, read_text
from wsd.resources import MissingResourceError, framework_dir

PathLike = str | os.PathLike
GoldKey = dict[str, tuple[str, ...]]

# Dataset name -> path of its files (without the .data.xml / .gold.key.txt suffix) under the root.
_DATASETS = {
    "semcor": "Training_Corpora/SemCor/semcor",
    "senseval2": "Evaluation_Datasets/senseval2/senseval2",
    "senseval3": "Evaluation_Datasets/senseval3/senseval3",
    "semeval2007": "Evaluation_Datasets/semeval2007/semeval2007",
    "semeval2013": "Evaluation_Datasets/semeval2013/semeval2013",
    "semeval2015": "Evaluation_Datasets/semeval2015/semeval2015",
    "ALL": "Evaluation_Datasets/ALL/ALL",
}
_SHOWN_IDS = 5  # how many offending ids an error message lists
INSTANCE_POS = ("NOUN", "VERB", "ADJ", "ADV")


def _dataset_base(name: str, root: PathLike | None) -> Path:
    canonical = {known.lower(): known for known in _DATASETS}.get(name.lower())
    if canonical is None:
        raise ValueError(f"unknown dataset {name!r}; choose one of {', '.join(_DATASETS)}")
    return framework_dir(root) / _DATASETS[canonical]


def dataset_paths(name: str, root: PathLike | None = None) -> tuple[Path, Path]:
    """``(data.xml, gold.key.txt)`` of dataset ``name`` (e.g. 'semcor', 'semeval2007').

    ``root`` is the framework folder (default: see ``wsd.resources.framework_dir``). Raises
    ValueError for an unknown name and MissingResourceError when the files are not there.
    """
    base = _dataset_base(name, root)
    xml_path = base.with_name(base.name + ".data.xml")
    key_path = base.with_name(base.name + ".gold.key.txt")
    for path in (xml_path, key_path):
        if not path.is_file():
            raise MissingResourceError(f"dataset {name!r}: {path} does not exist")
    return xml_path, key_path


def dataset_names(root: PathLike | None = None) -> list[str]:
    """The known datasets whose files are present under ``root``."""
    present = []
    for name in _DATASETS:
        try:
            dataset_paths(name, root)
        except MissingResourceError:
            continue
        present.append(name)
    return present


def load_dataset(name: str, root: PathLike | None = None) -> list[Instance]:
    """Instances of dataset ``name`` with their gold senses (``load_framework`` on its files)."""
    return load_framework(*dataset_paths(name, root))


def read_key_file(path: PathLike) -> GoldKey:
    """``{instance id: (sense key, ...)}`` from a key file of lines ``id key1 [key2 ...]``.

    Blank lines are skipped. A line with an id but no key, or an id seen twice, raises
    ValueError naming ``file:line``.
    """
    gold: GoldKey = {}
    for number, line in enumerate(read_text(path).split("\n"), start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) < 2:
            raise ValueError(
                f"{path}:{number}: expected 'instance_id sense_key [sense_key ...]', "
                f"got {line.strip()!r}"
            )
        if fields[0] in gold:
            raise ValueError(f"{path}:{number}: instance id {fields[0]!r} appears twice")
        gold[fields[0]] = tuple(fields[1:])
    return gold


def write_key_file(path: PathLike, predictions: Mapping[str, str | Sequence[str] | None]) -> None:
    """Write ``{instance id: sense key or keys}`` as lines ``id key1 [key2 ...]``.

    An id mapped to None or to no keys is an abstention and gets no line, which is how the
    framework's scorer expects unanswered instances. Ids or keys containing whitespace (or
    empty ones) would make the file unreadable and raise ValueError.
    """
    lines = []
    for instance_id, answer in predictions.items():
        keys = [answer] if isinstance(answer, str) else list(answer or ())
        if not keys:
            continue
        for field in (instance_id, *keys):
            if not isinstance(field, str) or not field or field != "".join(field.split()):
                raise ValueError(
                    f"cannot write {field!r} (for instance {instance_id!r}) to a key file: "
                    "ids and sense keys must be non-empty strings without whitespace"
                )
        lines.append(" ".join((instance_id, *keys)) + "\n")
    with atomic_open(path) as out:
        out.writelines(lines)


def group_by_key(instances: Iterable[Instance]) -> dict[str, list[Instance]]:
    """Instances grouped by ``lemma#pos`` (``Instance.key``), for per-word classifiers.

    Groups keep first-seen order, and instances keep their order within a group.
    """
    groups: dict[str, list[Instance]] = {}
    for inst in instances:
        groups.setdefault(inst.key, []).append(inst)
    return groups


def load_framework(xml_path: PathLike, key_path: PathLike | None = None) -> list[Instance]:
    """All ``<instance>`` elements of ``xml_path`` as Instances, gold senses from ``key_path``.

    Without a key file the instances are unlabelled (``senses == ()``). With one, the two must
    match exactly: an instance with no gold line, or a gold id absent from the XML, raises
    ValueError (a mismatched pair of files is a mistake worth stopping for). Malformed XML raises
    ValueError with ``file:line:column``.
    """
    gold = read_key_file(key_path) if key_path is not None else None
    instances = list(_iter_instances(Path(xml_path), gold))
    if gold is not None:
        unlabelled = [inst.id for inst in instances if not inst.senses]
        if unlabelled:
            raise ValueError(
                f"{key_path} has no gold line for {len(unlabelled)} instance(s) of {xml_path} "
                f"(e.g. {', '.join(unlabelled[:_SHOWN_IDS])}); are these files a pair?"
            )
        if len(gold) > len(instances):
            seen = {inst.id for inst in instances}
            extra = [instance_id for instance_id in gold if instance_id not in seen]
            raise ValueError(
                f"{key_path} has {len(extra)} gold id(s) that are not instances of {xml_path} "
                f"(e.g. {', '.join(extra[:_SHOWN_IDS])}); are these files a pair?"
            )
    return instances


def _iter_instances(xml_path: Path, gold: GoldKey | None) -> Iterator[Instance]:
    """Stream the XML sentence by sentence, freeing each sentence element once it is read."""
    document: tuple[tuple[str, str], ...] = ()
    seen: dict[str, str] = {}  # instance id -> its sentence id
    sentences_open = 0
    try:
        for event, elem in iterparse(xml_path, events=("start", "end"), forbid_dtd=True):
            if event == "start":
                if elem.tag == "sentence":
                    sentences_open += 1
                elif elem.tag == "instance" and not sentences_open:
                    raise ValueError(f"{xml_path}: the <instance> {elem.get('id')!r} is outside "
                                     "any <sentence>; it would have no context")
                elif elem.tag == "text":
                    document = tuple(
                        (name, elem.get(attr))
                        for name, attr in (("document", "id"), ("source", "source"))
                        if elem.get(attr) is not None
                    )
            elif elem.tag == "sentence":
                sentences_open -= 1
                for inst in _sentence_instances(xml_path, elem, document, gold):
                    sentence_id = elem.get("id", "")
                    if inst.id in seen:
                        raise ValueError(
                            f"{xml_path}: instance id {inst.id!r} appears twice (sentences "
                            f"{seen[inst.id]!r} and {sentence_id!r}); ids must be unique")
                    seen[inst.id] = sentence_id
                    yield inst
                elem.clear()
            elif elem.tag == "text":
                elem.clear()
    except ET.ParseError as error:
        line, column = error.position
        raise ValueError(
            f"{xml_path}:{line}:{column}: malformed XML ({error}); "
            "expected the Raganato et al. (2017) data.xml format"
        ) from None
    except DefusedXmlException as error:
        raise ValueError(f"{xml_path}: refused: {error} (corpus XML may not declare a DOCTYPE "
                         "or entities)") from None


def _sentence_instances(
    xml_path: Path,
    sentence: ET.Element,
    document: tuple[tuple[str, str], ...],
    gold: GoldKey | None,
) -> Iterator[Instance]:
    sentence_id = sentence.get("id", "")
    tokens = []
    tags = []
    lemmas = []
    targets = []
    for index, token in enumerate(sentence):
        if token.tag not in ("wf", "instance"):
            raise ValueError(
                f"{xml_path}: sentence {sentence_id!r} holds a <{token.tag}> element; "
                "only <wf> and <instance> are allowed"
            )
        if len(token) or (token.tail or "").strip():
            inner = (f"a <{token[0].tag}> element" if len(token)
                     else f"the text {token.tail.strip()[:40]!r}")
            raise ValueError(
                f"{xml_path}: sentence {sentence_id!r}: the <{token.tag}> "
                f"{token.get('id') or token.text!r} holds or is followed by {inner}; a token's "
                "text must be plain, between <wf> and <instance> elements only (it would be "
                "dropped)"
            )
        tokens.append(sys.intern(token.text or ""))
        tags.append(sys.intern(token.get("pos", "")))
        lemmas.append(sys.intern(token.get("lemma") or (token.text or "").lower()))
        if token.tag == "instance":
            targets.append((index, token))
    tokens_tuple = tuple(tokens)
    tags_tuple = tuple(tags)
    meta = (*document, ("sentence", sentence_id), ("lemmas", tuple(lemmas)))
    for index, token in targets:
        instance_id, lemma, pos = token.get("id"), token.get("lemma"), token.get("pos")
        if not (instance_id and lemma and pos):
            raise ValueError(
                f"{xml_path}: an <instance> in sentence {sentence_id!r} lacks its id, lemma or "
                f"pos attribute (has {dict(token.attrib)})"
            )
        if pos not in INSTANCE_POS:
            raise ValueError(
                f"{xml_path}: instance {instance_id!r} has pos {pos!r}; an instance's pos must "
                f"be one of {', '.join(INSTANCE_POS)} (upper case, universal tags)")
        yield Instance(
            id=instance_id,
            tokens=tokens_tuple,
            span=(index, index + 1),
            lemma=sys.intern(lemma),
            pos=tags_tuple,
            senses=gold.get(instance_id, ()) if gold is not None else (),
            target_pos=sys.intern(pos),
            meta=meta,
        )
