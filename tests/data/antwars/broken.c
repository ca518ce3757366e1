/* Does not compile: a test of the compiler's diagnostics. */
int Move(int grid[11][11], int row, int column)
{
    return row +;
}
