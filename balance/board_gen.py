#!/usr/bin/env python3
"""Candidate evidence boards for the D5 study (see BALANCE.md).

A board is drawn on a hex grid: Nixon in the centre (0, 0), an inner ring of
6 evidence spaces, a middle ring of 12, and an outer ring of 14 approach
spaces, 2 per informant; the 7 informants sit on ring 4, each touching only
its own two approach spaces (so no evidence space touches two informants and
the shortest informant-to-Nixon path crosses 3 evidence spaces). Threads
follow hex adjacency between neighbouring rings ("radial") and, optionally,
along a ring ("lateral"). Slips use the proper 3-colouring of the hex grid,
(q - r + shift) mod 3, so neighbouring spaces never share a colour.

  python3 balance/board_gen.py OUT_DIR      # writes every candidate, prints its D5 figures

(`watergate check --variant OUT_DIR/NAME.ron` measures any board the same way.)

Each candidate is a board file and a variant file replacing cards/board.ron.
"""
import itertools, os, re, sys
from collections import deque

DIRS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
INFORMANTS = ["Woods", "Butterfield", "Sloan", "Martha Mitchell", "Dean", "Baldwin", "McCord"]
COLOURS = ["Blue", "Yellow", "Green"]


def dist(a):
    q, r = a
    return max(abs(q), abs(r), abs(q + r))


def ring(k):
    cells = []
    q, r = -k, k  # start at direction 4 times k
    for d in range(6):
        for _ in range(k):
            cells.append((q, r))
            q, r = q + DIRS[d][0], r + DIRS[d][1]
    return cells


def adjacent(a, b):
    return (b[0] - a[0], b[1] - a[1]) in DIRS


def informant_cells(offset, gaps):
    """Seven ring-4 cells whose ring-3 neighbour pairs are disjoint: walk the
    18-cycle of ring 3 taking pairs, skipping one cell after the pairs listed
    in `gaps` (4 of the 7)."""
    r3 = ring(3)
    pairs, i = [], offset
    for k in range(7):
        pairs.append((r3[i % 18], r3[(i + 1) % 18]))
        i += 2 + (1 if k in gaps else 0)
    cells = []
    for a, b in pairs:
        common = [c for c in ring(4) if adjacent(c, a) and adjacent(c, b)]
        cells.append((common[0], (a, b)))
    return cells


def build(name, offset=0, gaps=(0, 2, 4, 5), lateral=(), shift=0, drop=()):
    spaces = {(0, 0): ("nixon", "Nixon")}
    inner, middle = ring(1), ring(2)
    inf = informant_cells(offset, gaps)
    outer = [c for _, pair in inf for c in pair]
    outer.sort(key=lambda c: ring(3).index(c))
    colour = lambda c: COLOURS[(c[0] - c[1] + shift) % 3]
    for i, c in enumerate(inner):
        spaces[c] = (f"i{i + 1}", colour(c))
    for i, c in enumerate(middle):
        if f"m{i + 1}" in drop:
            continue
        spaces[c] = (f"m{i + 1}", colour(c))
    for i, c in enumerate(outer):
        spaces[c] = (f"o{i + 1}", colour(c))
    for n, (c, _) in enumerate(inf):
        spaces[c] = ("informant_" + INFORMANTS[n].lower().replace(" ", "_"), ("Informant", INFORMANTS[n]))
    threads = []
    cells = list(spaces)
    for a, b in itertools.combinations(cells, 2):
        if not adjacent(a, b):
            continue
        da, db = dist(a), dist(b)
        ida, idb = spaces[a][0], spaces[b][0]
        if da == db:
            if da in lateral:
                threads.append((ida, idb))
        elif abs(da - db) == 1:
            threads.append((ida, idb) if da < db else (idb, ida))
    # informants touch only their own approach spaces (radial ring 3 -> 4 above)
    return name, spaces, threads


def graph(spaces, threads):
    g = {v[0]: set() for v in spaces.values()}
    for a, b in threads:
        g[a].add(b)
        g[b].add(a)
    return g


def figures(spaces, threads):
    g = graph(spaces, threads)
    kind = {v[0]: v[1] for v in spaces.values()}
    infs = [s for s, k in kind.items() if isinstance(k, tuple)]
    # shortest path: evidence spaces crossed
    out = {}
    for i in infs:
        seen, dq = {i: 0}, deque([i])
        while dq:
            v = dq.popleft()
            for w in g[v]:
                if w in seen or (isinstance(kind[w], tuple)):
                    continue
                seen[w] = seen[v] + 1
                dq.append(w)
        out[i] = seen.get("nixon", 99) - 1
    shortest = min(out.values())
    shared = [e for e in g if kind[e] in COLOURS and sum(1 for w in g[e] if w in infs) > 1]
    counts = {c: sum(1 for k in kind.values() if k == c) for c in COLOURS}
    return shortest, shared, counts, len(threads), sum(counts.values())


def ron(name, spaces, threads, note):
    lines = [f"// Candidate board `{name}` for the D5 study (balance/board_gen.py). {note}", "Board(", "    spaces: ["]
    for c, (sid, k) in sorted(spaces.items(), key=lambda kv: (dist(kv[0]), kv[1][0])):
        if k == "Nixon":
            kind = "Nixon"
        elif isinstance(k, tuple):
            kind = f'Informant("{k[1]}")'
        else:
            kind = f"Evidence({k})"
        lines.append(f'        (id: "{sid}", kind: {kind}, at: ({c[0]}, {c[1]})),')
    lines += ["    ],", "    threads: ["]
    for a, b in threads:
        lines.append(f'        ("{a}", "{b}"),')
    lines += ["    ],", "    provenance: (",
              f'        source: "Candidate `{name}` of the D5 study (BALANCE.md).",',
              '        placeholders: ["spaces", "threads"],', "    ),", ")", ""]
    return "\n".join(lines)


CANDIDATES = {
    # name: build kwargs
    "radial": dict(lateral=()),
    "lat1": dict(lateral=(1,)),
    "lat2": dict(lateral=(2,)),
    "lat12": dict(lateral=(1, 2)),
    "lat123": dict(lateral=(1, 2, 3)),
    "lat3": dict(lateral=(3,)),
    "lat13": dict(lateral=(1, 3)),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, kw in CANDIDATES.items():
        n, spaces, threads = build(name, **kw)
        sh, shared, counts, nt, ne = figures(spaces, threads)
        note = f"lateral rings {kw.get('lateral')}; {ne} evidence spaces, {nt} threads."
        print(f"{name:10} shortest {sh} shared {shared} colours {counts} spaces {ne} threads {nt}")
        open(os.path.join(out, f"{name}.board.ron"), "w").write(ron(name, spaces, threads, note))
        open(os.path.join(out, f"{name}.ron"), "w").write(
            f'Variant(\n    name: "board {name}",\n    description: "D5 study candidate: {note}",\n'
            f'    files: [("cards/board.ron", "{name}.board.ron")],\n)\n')


if __name__ == "__main__":
    main()
