/* Loops forever on its second move. */
static int moves;
int Move(int grid[11][11], int row, int column) {
    (void)grid; (void)row; (void)column;
    if (++moves == 2) for (;;) {}
    return 2;
}
void Reset(void) { moves = 0; }
