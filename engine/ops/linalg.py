"""Linear algebra: matmul (mm, mv, dot, bmm) and linear."""
from .table import Op, infix


def _matmul_name(ctx):
    a, b = len(ctx.shapes[0]), len(ctx.shapes[1])
    if a == 2 and b == 2:
        return "MmBackward0"
    if a == 1 and b == 1:
        return "DotBackward0"
    if a == 2 and b == 1:
        return "MvBackward0"
    if a == 3 and b == 3 and ctx.shapes[0][0] == ctx.shapes[1][0]:
        return "BmmBackward0"
    return "MatmulBackward0"


class Matmul(Op):
    name = "matmul"
    names = ("matmul", "mm", "mv", "dot")
    method = True
    formula = infix("@")
    node = staticmethod(_matmul_name)
    saves = (0, 1)
    save_for = ((1,), (0,))

    def forward(xp, a, b):
        return xp.matmul(a, b)

    def backward(F, ctx, g, a, b):
        na, nb = len(ctx.shapes[0]), len(ctx.shapes[1])
        ga = gb = None
        if na == 1 and nb == 1:
            return (g * b if ctx.needs[0] else None), (g * a if ctx.needs[1] else None)
        if na == 1:  # (n) @ (..., n, p) -> (..., p); the core sums batch axes away
            if ctx.needs[0]:
                ga = F.reshape(F.matmul(b, F.unsqueeze(g, dim=-1)), shape=tuple(g.shape[:-1]) + ctx.shapes[0])
            if ctx.needs[1]:
                gb = F.unsqueeze(a, dim=-1) * F.unsqueeze(g, dim=-2)
            return ga, gb
        if nb == 1:  # (..., m, n) @ (n) -> (..., m)
            if ctx.needs[0]:
                ga = F.unsqueeze(g, dim=-1) * b
            if ctx.needs[1]:
                gb = F.reshape(F.matmul(F.unsqueeze(g, dim=-2), a), shape=tuple(g.shape[:-1]) + ctx.shapes[1])
            return ga, gb
        if ctx.needs[0]:
            ga = F.matmul(g, F.transpose(b, dim0=-1, dim1=-2))
        if ctx.needs[1]:
            gb = F.matmul(F.transpose(a, dim0=-1, dim1=-2), g)
        return ga, gb


class Linear(Op):
    """linear(x, W, b) = x @ W.T + b, as torch.nn.functional.linear."""
    name = "linear"
    names = ("linear",)
    node = staticmethod(lambda ctx: "LinearBackward0" if len(ctx.shapes[0]) != 2 else
                        "AddmmBackward0" if len(ctx.shapes) == 3 else "MmBackward0")
    saves = (0, 1)
    save_for = ((1,), (0,))

    def forward(xp, x, w, b=None):
        out = xp.matmul(x, w.T)
        return out if b is None else out + b

    def backward(F, ctx, g, x, w):
        gx = F.matmul(g, w) if ctx.needs[0] else None
        gw = None
        if ctx.needs[1]:
            if len(ctx.shapes[0]) == 1:
                gw = F.unsqueeze(g, dim=-1) * x
            else:
                g2 = F.reshape(g, shape=(-1, ctx.shapes[1][0]))
                x2 = F.reshape(x, shape=(-1, ctx.shapes[1][1]))
                gw = F.matmul(F.transpose(g2, dim0=0, dim1=1), x2)
        if len(ctx.shapes) == 3:
            return gx, gw, (g if ctx.needs[2] else None)
        return gx, gw
