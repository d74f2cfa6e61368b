"""wsd: word-sense disambiguation with sparse features, the perceptron family and Lesk."""

from wsd.instance import Instance, instances_from_text

__version__ = "0.1.0"

__all__ = ["Instance", "instances_from_text", "__version__"]
