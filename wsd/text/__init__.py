"""Raw text to words ready for disambiguation: sentences, tokens with character offsets, Penn
POS tags (NLTK's averaged perceptron), and the units a sense is chosen for, with their lemmas
and parts of speech, as a reader reads them (``wsd.text.reader``): a model's, learnt from its
training corpus, joins multi-word expressions and names as that corpus did; the plain reader
takes WordNet's base forms and longest expressions.

``analyze(text, reader)`` returns one ``Sentence`` per sentence; its ``words`` are the units a
sense is chosen for (a multi-word expression is one word), each knowing whether it is a
content word. Needs NLTK's WordNet and tagger data (``MissingResourceError`` with the
downloader command otherwise).
"""

from wsd.text.pipeline import Sentence, Word, analyze, target_lemmas

__all__ = ["Sentence", "Word", "analyze", "target_lemmas"]
