"""The phrase reference: every phrase of the card DSL, read from the grammar and the primitives.

Each named alternative of the grammar (`-> alias`, in grammar/effect.lark and in each
primitive's registered rule) is a phrase. Its readable form comes from the grammar (keywords as
words, other rules as <placeholders>): `forms`; its example is the shortest statement of a
built-in card (or of examples/harbor) that uses it, else the `// e.g.` comment written next to
it: `examples`; its meaning is the docstring of the code that builds it: `listing`, which also
searches them for `kingdom phrases WORD`. docs/dsl.md is `markdown`'s output
(tests/test_phrases.py keeps it up to date).
"""
