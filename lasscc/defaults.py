"""The config of an input that gives none: `lasscc tune`'s stored winner, else the shape-aware default
(lasscc.heuristics) when the sizes are known.  `lasscc run` / `bench` / `compile` and `lasscc explain
--m --n` take it from here (its own module: lasscc.options is imported by the API, which lasscc.tune's
explain facts import)."""

from __future__ import annotations

import sys

from lasscc.options import has_overrides, only_align


def apply_tuned(module, args, m=None, n=None, k=None, gpu=None, sms=None) -> list[str]:
    """A lass.gemm without `config` and no override options takes `lasscc tune`'s stored winner;
    with none stored and the sizes known (run / bench / explain --m --n), the shape-aware default
    (lasscc.heuristics, for a GPU of `sms` SMs).  Returns the lines printed (on stderr) for them."""
    from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, StringAttr

    from lasscc.dialects._common import memref_layout
    from lasscc.dialects.lass import config_from_attr, config_to_attr
    from lasscc.driver import import_gemms
    from lasscc.resources import WGMMA, WGMMA_ARCHS
    from lasscc.tune import load_tuned, lookup_tuned

    said: list[str] = []
    if has_overrides(args) or (not load_tuned() and m is None):  # nothing to apply: the input stays as written
        return said
    for g in (o for o in import_gemms(module, args.file) if only_align(o.config)):
        layout = "".join(memref_layout(v.type) for v in (g.a, g.b, g.d))
        found = lookup_tuned(str(g.a.type.get_element_type()), str(g.d.type.get_element_type()), layout, m, n, k, gpu)
        if found is not None and found.get("mma") == WGMMA and (args.arch not in WGMMA_ARCHS or (
                g.config is not None and "mma" in g.config.data)):
            # a Hopper winner is no config for this target (`lasscc compile` defaults to sm_80), nor
            # for a GEMM that must take mma.sync (lasscc.family.size_fallback)
            found = None
        what = "the tuned config"
        if found is None and m is not None and g.a.type.get_num_dims() == 2 and not g.has_epilogue:
            from lasscc.family import choose as choose_family
            from lasscc.heuristics import choose

            fam = choose_family(g, args.arch)  # sm_90a: decompose the wgmma tile lasscc.family would take
            choice = choose(m, n, k, str(g.a.type.get_element_type()), sms, args.arch,
                            d_type=str(g.d.type.get_element_type()), base=fam.config if fam.mma == WGMMA else None,
                            d_row=m if memref_layout(g.d.type) == "col" else n)
            found, what = choice.config.as_dict(), f"the shape-aware default ({choice.describe()})"
        if found is not None:
            if g.config is not None and "align" in g.config.data and found.get("mma") != WGMMA:
                # keep the access widths: they belong to the sizes, not the tiling (TMA has none)
                found = {**found, "align": [int(v.value.data) for v in g.config.data["align"].data]}
            g.attributes["config"] = config_to_attr(config_from_attr(DictionaryAttr({
                key: (ArrayAttr([IntegerAttr(x, 64) for x in v]) if isinstance(v, list) else
                      StringAttr(v) if isinstance(v, str) else IntegerAttr(v, 64))  # split_k_mode: a string
                for key, v in found.items()})))
            said.append(f"lasscc: using {what}: {found}" + (" (lasscc tune)" if what == "the tuned config" else ""))
            print(said[-1], file=sys.stderr)
    return said
