"""Raw text to words ready for disambiguation: sentences, tokens with character offsets, Penn
POS tags (NLTK's averaged perceptron), and the units a sense is chosen for, with their lemmas
and parts of speech, as a reader reads them (``wsd.text.reader``): a model's, learnt from its
training corpus, joins multi-word expressions and names as that corpus did; the plain reader
takes WordNet's base forms and longest expressions.

``analyze(text, reader)`` returns one ``Sentence`` per sentence; its ``words`` are the units a
sense is chosen for (a multi-word expression is one word), each knowing whether it is a
content word. Needs NLTK's WordNet and tagger data (``MissingResourceError`` with the
downloader command otherwise). Names are imported on first use, so the tokenizer
(``wsd.text.treebank``) loads without the rest.
"""

from wsd.lazy import lazy_getattr

_EXPORTS = {name: "wsd.text.pipeline" for name in ("Sentence", "Word", "analyze", "target_lemmas")}
__all__ = sorted(_EXPORTS)

__getattr__ = lazy_getattr(__name__, _EXPORTS)
