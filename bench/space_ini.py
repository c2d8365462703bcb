"""A space file as the benchmark scripts read it (bench/gemm_vs_cublas.py, bench/llm_kernels.py): the INI dialect
vkautotune reads, and which --start configuration goes to which space."""
import configparser
import os


def read_space(path):
    """The space file at `path` as configparser reads it (';' and '#' comments, no interpolation)."""
    cp = configparser.ConfigParser(inline_comment_prefixes=(";", "#"), comment_prefixes=(";", "#"), strict=False,
                                   interpolation=None)
    cp.optionxform = str
    cp.read(path)
    return cp


def space_params(path):
    """The names of the space's [params]."""
    cp = read_space(path)
    return set(cp["params"]) if cp.has_section("params") else set()


def starts_for_space(starts, path):
    """The --start configurations of `starts` that go to the space at `path`. 'SPACE:CONFIG' goes only to the space
    of that file name (spaces/SPACE.ini: two spaces with the same parameters but other values, e.g. the fp16 and int8
    split-K ones); a plain CONFIG to every space whose parameters are exactly the ones it names."""
    stem, params, out = os.path.splitext(os.path.basename(path))[0], space_params(path), []
    for start in starts or []:
        target, sep, config = start.partition(":")
        if not sep:
            target, config = None, start
        elif target != stem:
            continue
        if target or {kv.split("=", 1)[0].strip() for kv in config.split(",")} == params:
            out.append(config)
    return out
