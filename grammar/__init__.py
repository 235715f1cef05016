"""autodiff.grammar: the language -- a lark grammar and the interpreter that turns programs into engine calls."""
