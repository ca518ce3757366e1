/* Crashes on its third move (a null pointer written). */
static int moves;
int Move(int grid[11][11], int row, int column) {
    (void)grid; (void)row; (void)column;
    if (++moves == 3) *(volatile int *)0 = 1;
    return 0;
}
void Reset(void) { moves = 0; }
