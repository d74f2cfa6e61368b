"""Raw text to words ready for disambiguation: sentences, tokens with character offsets, Penn
POS tags (NLTK's averaged perceptron), lemmas (WordNet's morphy) and WordNet multi-word
expressions (*ice cream*, *look up*, *New York*) joined into one word.

``analyze(text)`` returns one ``Sentence`` per sentence; its ``words`` are the units a
sense is chosen for (a multi-word expression is one word), each knowing whether it is a
content word WordNet has senses for. ``analyze(text, conventions)`` joins the expressions a
model's training corpus joined and reads a word form as the part of speech that corpus gave
it where the tagger's differs (``wsd.text.conventions``; by default, the expressions SemCor
tagged as one unit at least once, and the tagger's parts of speech). Needs NLTK's WordNet
and tagger data (``MissingResourceError`` with the downloader command otherwise).
"""

from wsd.text.pipeline import Sentence, Word, analyze, target_lemmas

__all__ = ["Sentence", "Word", "analyze", "target_lemmas"]
