/* Compiles, but defines no Move. */
int move(int grid[11][11], int row, int column)
{
    (void)grid;
    return row + column;
}
