"""The same numbers in a terminal: the steps table, or the state JSON (contract version 2).

    python -m app "Il gatto seduto sul tappeto dormiva" --focus 5 [--lang it] [--mask]
                  [--self] [--no-scaled] [--temp T] [--json]

Run from a clone with plain CPython 3.11+ (standard library only, nothing to install).
It builds the same record (app/contract.py) and prints the page's own views as text
(app/plain_text.py): the question of the word, the formula with its divisor, the steps
table with the page's words and rounding, and the notes the page would show. `--json`
prints the state JSON exactly as the page publishes it for the same link.

Every option comes from the settings schema (app/settings.py): a setting with a URL key
gets `--<key>` (switches also `--no-<key>`), read and checked exactly as that URL
parameter is. So a setting declared later gets its option here without any edit: when
the `head` setting exists, `--head N` selects the head as `?head=N` does. A value the
page would replace with a note is an error here: the note is printed and the exit status
is 2. Without a sentence, the page's first example is used.
"""

import argparse
import sys

from app import contract, i18n, settings as schema
from app.plain_text import steps_text
from app.views.messages import note_text

METAVAR = {"index": "N", "integer": "N", "number": "X", "text": "TEXT"}


def option_help(setting):
    """What the option does in words (the setting's `help`), what it takes and an example:
    'the causal mask: no word looks at the words after it (default: off). Example: --mask'."""
    if setting.kind == "flag":
        default = "on" if setting.default else "off"
        example = f"--{setting.url}" if not setting.default else f"--no-{setting.url}"
        return f"{setting.help} (default: {default}). Example: {example}".replace("%", "%%")
    allowed = setting.allowed()
    if setting.kind == "index":
        allowed = "a word index from 0"
    elif setting.kind == "matrix":
        allowed = "rows split by ';', numbers by ','"
    default = setting.default_text()
    value = setting.example.replace("+", " ")
    example = f'--{setting.url} "{value}"' if (" " in value or ";" in value) else f"--{setting.url} {value}"
    return (f"{setting.help} ({allowed}; default: {default}). Example: {example}").replace("%", "%%")


class Help(argparse.HelpFormatter):
    """argparse's help, lines broken at spaces only ("grouped-query" stays one word)."""

    def _split_lines(self, text, width):
        import textwrap
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


def build_parser():
    """The command line, one option a setting of the schema that has a URL key."""
    parser = argparse.ArgumentParser(
        prog="python -m app", description=__doc__.split("\n\n")[0], formatter_class=Help,
        epilog="Example: python -m app \"Il gatto seduto sul tappeto dormiva\" --focus 5 --mask "
               "(the steps table of «dormiva» with the causal mask). Every option is also a link "
               "parameter of the page, with the same name: docs/parameters.md.")
    parser.add_argument("sentence", nargs="?", help="the sentence (default: the first example)")
    parser.add_argument("--json", action="store_true", help="print the state JSON (contract version 2)")
    for setting in schema.SCHEMA:
        if setting.url is None or setting.attr == "sentence":
            continue
        dest = "setting_" + setting.attr
        if setting.kind == "flag":
            parser.add_argument("--" + setting.url, dest=dest, action=argparse.BooleanOptionalAction,
                                default=None, help=option_help(setting))
        else:
            parser.add_argument("--" + setting.url, dest=dest, metavar=METAVAR.get(setting.kind, setting.url.upper()),
                                choices=setting.choices if setting.kind == "choice" else None,
                                help=option_help(setting))
    return parser


def link_params(args):
    """The options as the page's URL parameters ({name: [text]}), for settings.parse_params."""
    params = {} if args.sentence is None else {"s": [args.sentence]}
    for setting in schema.SCHEMA:
        value = getattr(args, "setting_" + setting.attr, None)
        if value is not None:
            params[setting.url] = [("1" if value else "0") if isinstance(value, bool) else str(value)]
    return params


def main(argv=None):
    args = build_parser().parse_args(argv)
    settings, tokens, record, notes = contract.from_link(link_params(args))
    if notes:
        for note in notes:
            print(note_text(note, settings.lang), file=sys.stderr)
        print(i18n.text(settings.lang, "cli_refused"), file=sys.stderr)
        return 2
    if args.json:
        print(contract.state_json(contract.build_state(settings, tokens, record)))
    else:
        print("\n".join(steps_text(settings, tokens, record)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
