"""Vision: find every grid on a page, measure its lattice (size, box shape, lines), warp it
upright and square, and sort its cells into empty, given and blocked."""
