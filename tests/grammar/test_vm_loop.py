"""The interpreter's loop (grammar/vm.py, `Interpreter._execute`): what its
table of opcode handlers must keep of the loop it replaced."""
import _thread
import threading

from autodiff.grammar.compiler import compile_program
from autodiff.grammar.parser import parse
from autodiff.grammar.vm import Interpreter


def test_ctrl_c_anywhere_in_a_loop_says_where_the_program_was():
    """Ctrl-C lands where Python next looks for it: in a handler, or as the loop goes back for the
    next instruction (Python 3.11 looks at a jump back as if at the instruction before its target).
    Either way the program stops at the instruction it was running, and says where that was."""
    source = "while True:\n    pass\n"
    code = compile_program(parse(source), source)
    places = []
    for _ in range(20):  # a moment each: Ctrl-C at a different point of the loop
        timer = threading.Timer(0.02, _thread.interrupt_main)
        timer.start()
        try:
            Interpreter(max_steps=10**9).run(code)
        except KeyboardInterrupt as stop:
            places.append((type(stop).__name__, getattr(stop, "start", None), getattr(stop, "end", None)))
        finally:
            timer.join()
    assert set(places) == {("Interrupted", 6, 10)}  # `True`: the node of each of the loop's instructions
