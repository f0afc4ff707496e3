#!/usr/bin/python3
"""Renders chat templates with Python's Jinja2 set up as transformers sets it
up, for ingot's parity test.

Reads a JSON batch on stdin:
  {"now": <unix seconds for strftime_now>,
   "templates": [<template source>, ...],
   "cases": [{"template": <index>, "context": {...}}, ...]}
and writes one result per case on stdout:
  [{"ok": true, "output": "..."} | {"ok": false, "error": "..."}, ...]
"""

import datetime
import json
import sys

import jinja2
import jinja2.ext
from jinja2.sandbox import ImmutableSandboxedEnvironment


class GenerationBlock(jinja2.ext.Extension):
    """transformers' {% generation %} tag: renders its body unchanged when
    no assistant mask is requested."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_render", []), [], [], body).set_lineno(lineno)

    def _render(self, caller):
        return caller()


def make_environment(now):
    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators,
                          sort_keys=sort_keys)

    def strftime_now(format):
        return datetime.datetime.fromtimestamp(now).strftime(format)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[GenerationBlock, jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def main():
    batch = json.load(sys.stdin)
    env = make_environment(batch["now"])
    compiled = []
    for source in batch["templates"]:
        try:
            compiled.append(env.from_string(source))
        except Exception as error:  # the template itself is rejected
            compiled.append(error)
    results = []
    for case in batch["cases"]:
        template = compiled[case["template"]]
        if isinstance(template, Exception):
            results.append({"ok": False, "error": f"{type(template).__name__}: {template}"})
            continue
        try:
            results.append({"ok": True, "output": template.render(**case["context"])})
        except Exception as error:
            results.append({"ok": False, "error": f"{type(error).__name__}: {error}"})
    json.dump(results, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
