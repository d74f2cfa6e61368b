"""Every module imports on its own, first (no import-order cycles between our packages)."""

import json
import pkgutil
import subprocess
import sys

import pytest

import wsd

MODULES = sorted(m.name for m in pkgutil.walk_packages(wsd.__path__, "wsd."))

# One interpreter keeps numpy, pandas and nltk loaded; before each module every wsd module is
# forgotten, so that module is the first of ours to be imported.
CHECK = """
import importlib, sys, traceback
failed = []
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m == "wsd" or m.startswith("wsd.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception:
        failed.append(name + ":\\n" + traceback.format_exc())
print("\\n".join(failed))
sys.exit(1 if failed else 0)
"""


def test_every_module_imports_first():
    assert "wsd.systems.lesk" in MODULES and len(MODULES) > 20
    result = subprocess.run([sys.executable, "-c", CHECK, *MODULES], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_wsd_is_light_and_names_load_on_first_use():
    code = ("import sys, wsd; heavy = [m for m in ('numpy', 'nltk', 'pandas', 'scipy') "
            "if m in sys.modules]; print(heavy); from wsd import Instance, disambiguate, "
            "load_model; print(callable(disambiguate), Instance.__name__)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.stdout.split("\n")[:2] == ["[]", "True Instance"], result.stderr


def heavy_packages_after_importing(modules: str, heavy: tuple[str, ...]) -> list[str]:
    """The ``heavy`` packages a fresh interpreter holds after importing ``modules``."""
    code = (f"import json, sys, {modules}; "
            f"print(json.dumps([m for m in {heavy!r} if m in sys.modules]))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_raw_text_path_imports_neither_nltk_nor_other_heavy_packages():
    """A cold ``wsd disambiguate --model`` imports these modules; NLTK (through NLTK's
    ClassifierI in the learners), pandas, scipy.stats or numba would add seconds to it, scipy
    itself (its sparse matrices) a fifth of a second."""
    modules = ("wsd.cli, wsd.experiments.disambiguate, wsd.systems.allwords.system, "
               "wsd.systems.allwords.plaintext, wsd.text")
    heavy = ("nltk", "pandas", "scipy", "numba", "sklearn")
    assert heavy_packages_after_importing(modules, heavy) == []


def test_the_bundled_path_imports_neither_nltk_nor_pandas():
    """A bundled target's model (``wsd disambiguate --target bass``, ``wsd train``) is trained
    by these modules; NLTK (the learners had subclassed its ClassifierI), pandas (the metrics'
    tables) or scipy.stats had cost 5 s of CPU at every start."""
    modules = ("wsd.cli, wsd.experiments.disambiguate, wsd.experiments.train, "
               "wsd.systems.supervised, wsd.systems.named, wsd.learners.multiclass, "
               "wsd.evaluation.metrics")
    assert heavy_packages_after_importing(modules, ("nltk", "pandas", "scipy.stats",
                                                    "sklearn")) == []


def test_raw_text_without_a_model_imports_no_nltk_once_the_lexicon_is_compiled(
        compiled_lexicon):  # fmt: skip
    """``wsd disambiguate "..."`` without a model (gloss similarity; Lesk by name) reads
    WordNet and the tagger from the compiled lexicon: importing NLTK to check its data, and to
    find WordNet's files for the gloss cache's identity, had cost over a second a call."""
    if compiled_lexicon is None:
        pytest.skip("NLTK wordnet or averaged_perceptron_tagger_eng data absent")
    code = ("import sys; from wsd.cli import main; "
            "code = main(['disambiguate', *sys.argv[1:], 'The violin was out of tune']); "
            "print(code, 'nltk' in sys.modules)")
    for args in (["--model", "lesk"], ["--target", "violin"]):
        result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                                text=True, timeout=300)  # fmt: skip
        assert result.stdout.splitlines()[-1] == "0 False", result.stdout + result.stderr
